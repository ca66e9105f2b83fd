"""The full-screen terminal app: it wires keys and the session's loop to the renderers.

Every panel is drawn by a pure function of the session's view
(:mod:`greenfelt.tui.render`); the app holds no game state of its own.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.console import Group
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Static

from greenfelt.errors import GreenfeltError
from greenfelt.tui.helptext import help_text
from greenfelt.tui.keys import GOLF_KEYS, HAND_LETTERS, SPADES_KEYS, action_for_key, legal_actions
from greenfelt.tui.render import (
    match_result,
    moves_text,
    result_panel,
    scoresheet,
    status_line,
    table_panel,
)
from greenfelt.tui.session import Session

__all__ = ["HelpScreen", "PlayApp"]


class HelpScreen(ModalScreen[None]):
    """The rules of the preset being played, and the keys (Esc, q or ? closes it)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("q", "close", show=False),
        Binding("question_mark", "close", show=False),
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    #help-box { width: 90%; height: 90%; border: round $accent; background: $surface;
                padding: 0 1; }
    """

    def __init__(self, text: Text) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Static(self.text, id="help")

    def action_close(self) -> None:
        self.dismiss(None)


class PlayApp(App[None]):
    """Play through a :class:`Session`: local against bots, or a seat at a server."""

    TITLE = "greenfelt"
    AUTO_FOCUS = "#main"
    CSS = """
    #status { height: 1; background: $boost; padding: 0 1; }
    #body { height: 1fr; }
    #main { width: 3fr; padding: 0 1; }
    #side { width: 2fr; min-width: 36; padding: 0 1; border-left: solid $primary; }
    #moves { margin-top: 1; }
    #message { margin-top: 1; }
    #log { margin-top: 1; color: $text-muted; }
    #command { dock: bottom; margin-bottom: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "quit", "Quit", priority=True, show=False),
        Binding("q", "quit", "Quit"),
        Binding("question_mark", "help", "Help"),
        Binding("n", "next_round", "Next round"),
        Binding("s", "save", "Save"),
        Binding("colon", "command", "Type an action"),
        Binding("enter", "command", show=False),
        Binding("escape", "leave_input", show=False),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.message: tuple[str, bool] | None = None
        self.panels: dict[str, Static] = {}
        self._sticky = False
        self.failure: str | None = None
        """Why the session's loop stopped unexpectedly, if it did."""
        session.listener = self._changed

    # ---- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="body"):
            with VerticalScroll(id="main"):
                yield Static(id="table")
                yield Static(id="moves")
                yield Static(id="message")
            with VerticalScroll(id="side"):
                yield Static(id="result")
                yield Static(id="scores")
                yield Static(id="log")
        yield Input(
            placeholder="press : and type an action (draw, swap 4, bid 3, play Q♠…), Enter sends",
            id="command",
        )
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"greenfelt · {self.session.game}"
        # Kept, not queried: a query looks at the screen on top (the help, say).
        self.panels = {
            name: self.query_one(f"#{name}", Static)
            for name in ("status", "table", "moves", "message", "result", "scores", "log")
        }
        self.render_view()
        self.run_worker(self._run_session(), name="session", exit_on_error=False)

    async def _run_session(self) -> None:
        try:
            await self.session.run()
        except Exception as error:  # shown, never a traceback over the table
            self.failure = f"{type(error).__name__}: {error}"
            self._changed(f"The game loop stopped: {self.failure}", True)

    # ---- drawing --------------------------------------------------------------------------

    def _changed(self, message: str | None, error: bool) -> None:
        # The session's own notices (a lost connection, a stale move) last until the
        # next event; what you were told about your own input lasts until your next key.
        if message is not None and error:
            self.message = (message, True)
            self._sticky = False
        elif message is not None and not self._sticky:
            self.message = None
        self.render_view()

    def say(self, message: str, error: bool = False) -> None:
        self.message = (message, error)
        self._sticky = True
        self.render_view()

    def render_view(self) -> None:
        if not self.panels:
            return
        panels = self.panels
        view = self.session.view
        labels = self.session.labels
        panels["status"].update(status_line(view))
        panels["table"].update(table_panel(view, labels, self.session.waiting))
        panels["moves"].update(moves_text(view))
        message = Text()
        if self.message is not None:
            text, error = self.message
            message = Text(text, style="bold red" if error else "bold")
        panels["message"].update(message)
        side: list[Any] = []
        for part in (match_result(view), result_panel(view)):
            if part is not None:
                side.append(part)
        panels["result"].update(Group(*side))
        sheet = scoresheet(view)
        panels["scores"].update(sheet if sheet is not None else "")
        log = self.session.log[-10:]
        panels["log"].update(Text("\n".join(log)))

    def shown(self, widget_id: str) -> Any:
        """What a panel shows now (its renderable): for tests."""
        return self.panels[widget_id].content

    # ---- keys -----------------------------------------------------------------------------

    def _game_keys(self) -> set[str]:
        keys = set("0123456789")
        if self.session.game == "golf":
            keys |= set(GOLF_KEYS.values())
        else:
            keys |= set(SPADES_KEYS.values()) | set(HAND_LETTERS)
        return keys

    async def on_key(self, event: events.Key) -> None:
        if isinstance(self.focused, Input) or isinstance(self.screen, ModalScreen):
            return
        key = event.character or ""
        if key not in self._game_keys():
            return
        event.stop()
        event.prevent_default()
        view = self.session.view
        action = action_for_key(view, key)
        if action is None:
            legal = ", ".join(legal_actions(view)) or "nothing: it is not your move"
            self.say(f"'{key}' does nothing now; you can: {legal}", True)
            return
        await self.play(action)

    async def play(self, text: str) -> None:
        """Send a move; if it is refused, say why and wait for another."""
        self.message = None
        try:
            await self.session.act(text)
        except GreenfeltError as error:
            self.say(f"{text}: {error}. Try again.", True)
            return
        self.render_view()

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        self.query_one("#main").focus()
        if not text:
            return
        word, _, rest = text.partition(" ")
        command = word.lower()
        if command in ("help", "?"):
            self.action_help()
        elif command in ("quit", "exit"):
            await self.action_quit()
        elif command in ("next", "rematch"):
            await self.action_next_round()
        elif command == "save":
            self.action_save(rest.strip() or None)
        else:
            await self.play(text)

    def action_command(self) -> None:
        self.query_one("#command", Input).focus()

    def action_leave_input(self) -> None:
        if isinstance(self.focused, Input):
            self.focused.value = ""
            self.query_one("#main").focus()

    def action_help(self) -> None:
        session = self.session
        self.push_screen(HelpScreen(help_text(session.game, session.rules, session.players)))

    async def action_next_round(self) -> None:
        try:
            await self.session.next_round()
        except GreenfeltError as error:
            self.say(str(error), True)

    def action_save(self, path: str | None = None) -> None:
        try:
            where = self.session.save(path)
        except GreenfeltError as error:
            self.say(str(error), True)
            return
        self.say(f"Saved the record to {where} (check it with: greenfelt replay {where}).")

    async def action_quit(self) -> None:
        await self.session.close()
        self.exit()
