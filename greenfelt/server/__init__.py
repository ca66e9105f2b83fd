"""The card room server: HTTP lobby, table WebSockets, storage that loses nothing."""
