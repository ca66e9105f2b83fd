"""The terminal client: play Golf or Spades against bots, or at a server's table."""
