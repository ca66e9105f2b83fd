// The lobby: create a table (game, preset, seats, bots, every rule), list open tables, join.
import {
  GROUPS,
  SPADES_OPTIONS,
  choiceLabel,
  describeRules,
  optionControl,
  optionLabel,
  problems,
  same,
} from "./options.js";
import { api, errorText, fill, h, saveName, saveSeat, savedName, savedSeat, toast } from "./util.js";

export const BOTS = [
  ["easy", "Bot · easy"],
  ["greedy", "Bot · medium"],
  ["expert", "Bot · hard"],
];

let catalogue = null;
export async function getCatalogue() {
  if (!catalogue) catalogue = await api("/api/games");
  return catalogue;
}

const form = {
  game: "golf",
  preset: "six-card",
  name: "",
  seats: [{ kind: "me" }, { kind: "bot", level: "greedy" }],
  golf: {},
  spades: {},
  serverError: null,
};

function resetOptions() {
  const presets = catalogue.golf.presets;
  form.golf = { ...presets[form.preset].options };
  form.spades = Object.fromEntries(SPADES_OPTIONS.map((o) => [o.name, o.value]));
  form.serverError = null;
}

export async function lobbyPage(main, setTop) {
  setTop("Lobby", []);
  fill(main, h("p", { class: "loading" }, "Opening the card room…"));
  try {
    await getCatalogue();
  } catch (error) {
    fill(main, h("div", { class: "panel error-panel" }, h("h1", null, "The card room is closed"), h("p", null, errorText(error))));
    return () => {};
  }
  if (!Object.keys(form.golf).length) resetOptions();
  form.name = form.name || savedName();
  const createBox = h("section", { class: "panel create", "aria-labelledby": "create-title" });
  const listBox = h("section", { class: "panel tables", "aria-labelledby": "tables-title" });
  fill(
    main,
    h(
      "div",
      { class: "lobby" },
      h(
        "div",
        { class: "hero" },
        h("h1", null, "Pull up a chair"),
        h("p", null, "Golf in every variant, and two-player Spades. Play friends or bots, right in the browser."),
      ),
      h("div", { class: "lobby-grid" }, createBox, listBox),
    ),
  );
  renderCreate(createBox);
  let stopped = false;
  const refresh = async () => {
    if (stopped) return;
    try {
      renderTables(listBox, await api("/api/tables"));
    } catch (error) {
      fill(listBox, h("h2", { id: "tables-title" }, "Open tables"), h("p", { class: "muted" }, errorText(error)));
    }
  };
  await refresh();
  const timer = setInterval(refresh, 4000);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

// ---- creating a table ---------------------------------------------------------

function renderCreate(box) {
  const golf = form.game === "golf";
  const presets = catalogue.golf.presets;
  const seatsBox = h("div", { class: "seats-edit" });
  const rulesBox = h("div", { class: "rules" });
  const problemBox = h("div", { class: "problems", role: "alert", "aria-live": "polite" });
  const createButton = h("button", { class: "btn primary big", type: "submit", id: "create-table" }, "Create table");

  const gameSwitch = h(
    "div",
    { class: "segmented", role: "radiogroup", "aria-label": "Game" },
    [
      ["golf", "Golf", "2–8 players"],
      ["spades", "Spades", "2 players"],
    ].map(([value, label, sub]) =>
      h(
        "button",
        {
          type: "button",
          role: "radio",
          "aria-checked": String(form.game === value),
          class: form.game === value ? "on" : "",
          "data-game": value,
          onclick: () => {
            if (form.game === value) return;
            form.game = value;
            form.seats = value === "spades" ? [{ kind: "me" }, { kind: "bot", level: "greedy" }] : form.seats;
            form.serverError = null;
            renderCreate(box);
          },
        },
        h("strong", null, label),
        h("small", null, sub),
      ),
    ),
  );

  const presetPicker = golf
    ? h(
        "fieldset",
        { class: "presets" },
        h("legend", null, "Variant"),
        h(
          "div",
          { class: "preset-grid" },
          Object.entries(presets).map(([name, preset]) =>
            h(
              "label",
              { class: `preset${form.preset === name ? " on" : ""}` },
              h("input", {
                type: "radio",
                name: "preset",
                value: name,
                checked: form.preset === name,
                onchange: () => {
                  form.preset = name;
                  resetOptions();
                  renderCreate(box);
                  box.querySelector(`input[value="${name}"]`)?.focus();
                },
              }),
              h("span", { class: "preset-name" }, name),
              h("span", { class: "preset-note" }, preset.note),
            ),
          ),
        ),
      )
    : null;

  const nameInput = h("input", {
    id: "my-name",
    type: "text",
    maxlength: "32",
    autocomplete: "nickname",
    placeholder: "Your name",
    value: form.name,
    required: true,
    oninput: (e) => {
      form.name = e.target.value;
    },
  });

  function renderSeats() {
    const max = golf ? 8 : 2;
    fill(
      seatsBox,
      form.seats.map((seat, i) =>
        h(
          "div",
          { class: "seat-row", "data-seat": i },
          h("span", { class: "seat-no", "aria-hidden": "true" }, i + 1),
          seat.kind === "me"
            ? h("span", { class: "seat-me" }, "You")
            : h(
                "select",
                {
                  "aria-label": `Seat ${i + 1}`,
                  "data-seat-kind": i,
                  onchange: (e) => {
                    const v = e.target.value;
                    form.seats[i] = v === "friend" ? { kind: "friend" } : { kind: "bot", level: v };
                    refreshProblems();
                  },
                },
                h("option", { value: "friend", selected: seat.kind === "friend" }, "A friend (invite link)"),
                BOTS.map(([level, label]) =>
                  h("option", { value: level, selected: seat.kind === "bot" && seat.level === level }, label),
                ),
              ),
          seat.kind !== "me" && golf && form.seats.length > 2
            ? h(
                "button",
                {
                  type: "button",
                  class: "btn icon",
                  "aria-label": `Remove seat ${i + 1}`,
                  onclick: () => {
                    form.seats.splice(i, 1);
                    renderSeats();
                    refreshProblems();
                  },
                },
                "✕",
              )
            : null,
        ),
      ),
      golf && form.seats.length < max
        ? h(
            "button",
            {
              type: "button",
              class: "btn ghost",
              id: "add-seat",
              onclick: () => {
                form.seats.push({ kind: "bot", level: "greedy" });
                renderSeats();
                refreshProblems();
                seatsBox.querySelector("#add-seat")?.focus();
              },
            },
            "+ Add a player",
          )
        : null,
      h("p", { class: "muted small" }, golf ? `${form.seats.length} players (2 to 8).` : "Spades is for two."),
    );
  }

  function renderRules() {
    if (!golf) {
      fill(
        rulesBox,
        h(
          "div",
          { class: "group-body" },
          SPADES_OPTIONS.map((o) => spadesControl(o)),
        ),
      );
      return;
    }
    const specs = Object.fromEntries(catalogue.golf.options.map((o) => [o.name, o]));
    const placed = new Set(GROUPS.flatMap((g) => g.options));
    const groups = [...GROUPS];
    const others = catalogue.golf.options.filter((o) => !placed.has(o.name)).map((o) => o.name);
    if (others.length) groups.push({ id: "other", title: "Other", blurb: "More options", options: others });
    const presetOptions = presets[form.preset].options;
    fill(
      rulesBox,
      groups.map((group) => {
        const names = group.options.filter((n) => specs[n]);
        const changed = names.filter((n) => !same(form.golf[n], presetOptions[n])).length;
        const powersOn = (form.golf.powers && form.golf.powers !== "off") || form.golf.cutthroat === true;
        const open = group.id === "match" || group.id === "setup" || (group.id === "powers" && powersOn);
        return h(
          "details",
          { class: "group", open, "data-group": group.id },
          h(
            "summary",
            null,
            h("span", { class: "group-title" }, group.title),
            h("span", { class: "group-blurb" }, group.blurb),
            h("span", { class: "group-changed", hidden: !changed }, `${changed} changed`),
          ),
          h(
            "div",
            { class: "group-body" },
            names.map((n) =>
              optionControl(specs[n], form.golf[n], presetOptions[n], (value) => {
                form.golf[n] = value;
                form.serverError = null;
                markChanged();
                refreshProblems();
              }),
            ),
          ),
        );
      }),
    );
  }

  function spadesControl(o) {
    const id = `spades-${o.name}`;
    let control;
    if (o.choices) {
      control = h(
        "select",
        { id, "data-option": o.name, onchange: (e) => (form.spades[o.name] = e.target.value) },
        Object.entries(o.choices).map(([k, label]) => h("option", { value: k, selected: form.spades[o.name] === k }, label)),
      );
    } else if (typeof o.value === "boolean") {
      control = h(
        "label",
        { class: "switch" },
        h("input", {
          id,
          "data-option": o.name,
          type: "checkbox",
          role: "switch",
          checked: form.spades[o.name],
          onchange: (e) => {
            form.spades[o.name] = e.target.checked;
            e.target.parentNode.querySelector(".switch-text").textContent = e.target.checked ? "on" : "off";
          },
        }),
        h("span", { class: "switch-track", "aria-hidden": "true" }),
        h("span", { class: "switch-text" }, form.spades[o.name] ? "on" : "off"),
      );
    } else {
      control = h("input", {
        id,
        "data-option": o.name,
        type: "number",
        min: "1",
        step: "50",
        class: "num",
        value: form.spades[o.name],
        oninput: (e) => {
          form.spades[o.name] = Number(e.target.value);
          refreshProblems();
        },
      });
    }
    return h(
      "div",
      { class: "option", "data-row": o.name },
      h("div", { class: "option-head" }, h("label", { for: id }, o.label), h("span", { class: "rule-id" }, o.rule)),
      h("div", { class: "option-control" }, control, o.name === "target" ? h("span", { class: "unit" }, "points") : null),
      h("p", { class: "option-help" }, o.help),
      h("p", { class: "option-problem", role: "alert", hidden: true }),
    );
  }

  function markChanged() {
    const presetOptions = presets[form.preset].options;
    for (const details of rulesBox.querySelectorAll("details.group")) {
      const names = [...details.querySelectorAll("[data-row]")].map((r) => r.dataset.row);
      const changed = names.filter((n) => !same(form.golf[n], presetOptions[n])).length;
      const badge = details.querySelector(".group-changed");
      badge.hidden = !changed;
      badge.textContent = `${changed} changed`;
    }
  }

  function currentProblems() {
    if (!golf) {
      const t = Number(form.spades.target);
      return Number.isInteger(t) && t > 0 ? [] : [{ option: "target", text: "Play to a score above 0.", fix: { target: 500 } }];
    }
    return problems(form.golf, form.seats.length);
  }

  function refreshProblems() {
    const list = currentProblems();
    for (const row of rulesBox.querySelectorAll(".option")) {
      const p = row.querySelector(".option-problem");
      const mine = list.filter((x) => x.option === row.dataset.row);
      row.classList.toggle("bad", mine.length > 0);
      p.hidden = !mine.length;
      fill(p, mine.map((x) => x.text).join(" "));
      if (mine.length) row.closest("details")?.setAttribute("open", "");
    }
    const items = list.map((x) =>
      h(
        "li",
        null,
        h("strong", null, golf ? optionLabel(x.option) : "Play to"),
        ": ",
        x.text,
        x.fix
          ? h(
              "button",
              {
                type: "button",
                class: "btn tiny",
                onclick: () => {
                  Object.assign(golf ? form.golf : form.spades, x.fix);
                  form.serverError = null;
                  renderCreate(box);
                },
              },
              `Use ${Object.entries(x.fix)
                .map(([k, v]) => `${optionLabel(k)}: ${choiceLabel(k, v)}`)
                .join(", ")}`,
            )
          : null,
      ),
    );
    if (form.serverError) items.push(h("li", { class: "server" }, errorText(form.serverError)));
    fill(
      problemBox,
      items.length ? [h("p", null, list.length ? "These rules cannot be played yet:" : "The server said:"), h("ul", null, items)] : null,
    );
    createButton.disabled = list.length > 0;
  }

  async function create(event) {
    event.preventDefault();
    const name = form.name.trim();
    if (!name) {
      toast("Tell the table your name first.", "error");
      nameInput.focus();
      return;
    }
    saveName(name);
    if (currentProblems().length) return;
    const seats = form.seats.map((s) => (s.kind === "me" ? { name } : s.kind === "bot" ? { bot: s.level } : {}));
    let options = {};
    let preset;
    if (golf) {
      preset = form.preset;
      const presetOptions = presets[form.preset].options;
      for (const [k, v] of Object.entries(form.golf)) if (!same(v, presetOptions[k])) options[k] = v;
      // Four in the hand are always seen (G1.7); the server hides them under memory=on,
      // so a hand4 table is created with memory off.
      if (form.golf.layout === "hand4" && form.golf.memory !== false) options.memory = false;
    } else {
      preset = "two-player";
      const defaults = Object.fromEntries(SPADES_OPTIONS.map((o) => [o.name, o.value]));
      for (const [k, v] of Object.entries(form.spades)) if (!same(v, defaults[k])) options[k] = v;
    }
    createButton.disabled = true;
    createButton.textContent = "Creating…";
    try {
      const table = await api("/api/tables", { method: "POST", body: { game: form.game, preset, options, seats } });
      const joined = await api(`/api/tables/${table.id}/join`, { method: "POST", body: { name, seat: 0 } });
      saveSeat(table.id, { token: joined.token, seat: joined.seat, name });
      location.hash = `#/table/${table.id}`;
    } catch (error) {
      form.serverError = error;
      createButton.textContent = "Create table";
      refreshProblems();
      problemBox.scrollIntoView({ block: "nearest" });
    }
  }

  fill(
    box,
    h("h2", { id: "create-title" }, "New table"),
    h(
      "form",
      { onsubmit: create, novalidate: true },
      h("div", { class: "field" }, h("label", { for: "my-name" }, "Your name"), nameInput),
      h("div", { class: "field" }, h("span", { class: "field-label", id: "game-label" }, "Game"), gameSwitch),
      presetPicker,
      h("fieldset", { class: "seats" }, h("legend", null, "Players"), seatsBox),
      h("fieldset", { class: "rules-box" }, h("legend", null, golf ? "Rules" : "Rules of Spades"), rulesBox),
      problemBox,
      h("div", { class: "create-actions" }, createButton),
    ),
  );
  renderSeats();
  renderRules();
  refreshProblems();
}

// ---- the list of tables -----------------------------------------------------------

function renderTables(box, tables) {
  const rows = tables.map((t) => {
    const free = t.seats.filter((s) => !s.taken);
    const mine = savedSeat(t.id);
    const status =
      t.status === "open"
        ? `waiting for ${free.length} player${free.length === 1 ? "" : "s"}`
        : t.game === "golf"
          ? `playing · hole ${t.round}`
          : `playing · hand ${t.round}`;
    return h(
      "li",
      { class: "table-item", "data-table": t.id },
      h(
        "div",
        { class: "table-main" },
        h("span", { class: `game-badge ${t.game}` }, t.game === "golf" ? "⚑" : "♠"),
        h(
          "div",
          null,
          h("div", { class: "table-title" }, describeRules(t.game, t.rules, catalogue)),
          h(
            "div",
            { class: "table-seats" },
            t.seats.map((s) =>
              h(
                "span",
                { class: `chip${s.bot ? " bot" : ""}${s.taken ? "" : " free"}` },
                s.taken ? (s.bot ? `${s.name} (bot)` : s.name) : "open seat",
              ),
            ),
          ),
          h("div", { class: "table-status muted small" }, status),
        ),
      ),
      h(
        "div",
        { class: "table-actions" },
        mine
          ? h("a", { class: "btn primary", href: `#/table/${t.id}` }, "Back to my seat")
          : free.length
            ? h("a", { class: "btn primary", href: `#/join/${t.id}` }, "Join")
            : null,
        h("a", { class: "btn ghost", href: `#/watch/${t.id}` }, "Watch"),
      ),
    );
  });
  fill(
    box,
    h("h2", { id: "tables-title" }, "Open tables"),
    rows.length ? h("ul", { class: "table-list" }, rows) : h("p", { class: "muted" }, "No tables yet. Create one and invite a friend!"),
  );
}

// ---- joining a table by its link --------------------------------------------------

export async function joinPage(main, setTop, id) {
  setTop("Join a table", []);
  fill(main, h("p", { class: "loading" }, "Finding the table…"));
  let table;
  try {
    await getCatalogue();
    table = await api(`/api/tables/${id}`);
  } catch (error) {
    fill(main, h("div", { class: "panel narrow" }, h("h1", null, "No such table"), h("p", null, errorText(error)), h("a", { class: "btn", href: "#/" }, "To the lobby")));
    return () => {};
  }
  if (savedSeat(id)) {
    location.hash = `#/table/${id}`;
    return () => {};
  }
  const free = table.seats.filter((s) => !s.taken);
  const nameInput = h("input", { id: "join-name", type: "text", maxlength: "32", value: savedName(), placeholder: "Your name", required: true });
  const seatSelect = h(
    "select",
    { id: "join-seat" },
    free.map((s) => h("option", { value: s.seat }, `Seat ${s.seat + 1}`)),
  );
  const message = h("p", { class: "form-error", role: "alert" });
  async function join(event) {
    event.preventDefault();
    const name = nameInput.value.trim();
    if (!name) {
      message.textContent = "Tell the table your name first.";
      nameInput.focus();
      return;
    }
    saveName(name);
    try {
      const joined = await api(`/api/tables/${id}/join`, { method: "POST", body: { name, seat: Number(seatSelect.value) } });
      saveSeat(id, { token: joined.token, seat: joined.seat, name });
      location.hash = `#/table/${id}`;
    } catch (error) {
      message.textContent = errorText(error);
    }
  }
  fill(
    main,
    h(
      "div",
      { class: "panel narrow join" },
      h("h1", null, "You are invited"),
      h("p", { class: "lead" }, describeRules(table.game, table.rules, catalogue)),
      h(
        "ul",
        { class: "table-seats big" },
        table.seats.map((s) =>
          h("li", { class: `chip${s.bot ? " bot" : ""}${s.taken ? "" : " free"}` }, `${s.seat + 1}. `, s.taken ? (s.bot ? `${s.name} (bot)` : s.name) : "open seat"),
        ),
      ),
      free.length
        ? h(
            "form",
            { onsubmit: join },
            h("div", { class: "field" }, h("label", { for: "join-name" }, "Your name"), nameInput),
            free.length > 1 ? h("div", { class: "field" }, h("label", { for: "join-seat" }, "Seat"), seatSelect) : null,
            message,
            h("div", { class: "create-actions" }, h("button", { class: "btn primary big", type: "submit", id: "join-button" }, "Take my seat"), h("a", { class: "btn ghost", href: `#/watch/${id}` }, "Just watch")),
          )
        : h("div", null, h("p", null, "Every seat is taken."), h("a", { class: "btn primary", href: `#/watch/${id}` }, "Watch the game")),
    ),
  );
  if (free.length) seatSelect.value = String(free[0].seat);
  nameInput.focus();
  return () => {};
}

