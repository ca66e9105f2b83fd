"""The HTTP lobby: its OpenAPI schema, and the routes doing what the schema says."""

from __future__ import annotations

import asyncio

import httpx

from greenfelt.server.app import create_app
from greenfelt.server.protocol import CODES
from tests.server.helpers import FAST, LiveServer, MemoryStore, Sock, legal_of, new_table


async def test_the_openapi_schema_documents_the_lobby() -> None:
    app = create_app(MemoryStore(), FAST)  # type: ignore[arg-type]
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://gf"
    ) as http:
        response = await http.get("/openapi.json")
        docs = await http.get("/docs")
    assert response.status_code == 200 and docs.status_code == 200
    schema = response.json()
    paths = schema["paths"]
    expected = {
        "/api/tables": {"get", "post"},
        "/api/tables/{table_id}": {"get"},
        "/api/tables/{table_id}/join": {"post"},
        "/api/tables/{table_id}/record": {"get"},
        "/api/games": {"get"},
        "/api/health": {"get"},
    }
    for path, methods in expected.items():
        assert path in paths, sorted(paths)
        assert methods <= set(paths[path]), (path, paths[path])
    create = paths["/api/tables"]["post"]
    body = create["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    fields = schema["components"]["schemas"][body]["properties"]
    assert {"game", "preset", "options", "seats"} <= set(fields)
    join = paths["/api/tables/{table_id}/join"]["post"]
    joined = join["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].rsplit(
        "/", 1
    )[-1]
    assert "token" in schema["components"]["schemas"][joined]["properties"]
    assert all(
        op.get("summary") or op.get("description") for p in expected for op in paths[p].values()
    )
    assert "/ws/tables/{table_id}" not in paths  # the socket is described by protocol.py


async def test_the_lobby_routes(live: LiveServer, http: httpx.AsyncClient) -> None:
    health = (await http.get("/api/health")).json()
    assert health["ok"] and health["store"] == "sqlite"
    assert health["bots"] == {"processes": 0, "waiting": 0}  # the tests' bots think in threads
    games = (await http.get("/api/games")).json()
    assert {"six-card", "four-card", "four-in-hand"} <= set(games["golf"]["presets"])
    assert "two-player" in games["spades"]["presets"]
    assert any(o["name"] == "end" for o in games["golf"]["options"])
    waiting, _ = await new_table(
        http, "golf", "six-card", {"end": "holes:1"}, [None, "greedy"], join=False
    )
    info = (await http.get(f"/api/tables/{waiting}")).json()
    assert info["status"] == "open" and info["rules"]["preset"] == "six-card"
    assert [s["taken"] for s in info["seats"]] == [False, True] and info["seats"][1][
        "bot"
    ] == "greedy"
    joined = (await http.post(f"/api/tables/{waiting}/join", json={"name": "  Ann  "})).json()
    assert joined["seat"] == 0 and joined["table"] == waiting
    info = (await http.get(f"/api/tables/{waiting}")).json()
    assert info["status"] == "playing" and info["seats"][0]["name"] == "Ann" and info["seq"] >= 2
    record = (await http.get(f"/api/tables/{waiting}/record")).json()
    assert (
        record["format"] == "greenfelt-record/1"
        and record["in_progress"]
        and record["rounds"] == []
    )
    # a bots-only table plays by itself to the end, and leaves the list of open tables
    done, _ = await new_table(http, "golf", "four-card", {"end": "holes:1"}, ["random", "random"])
    for _ in range(5000):
        if (await http.get(f"/api/tables/{done}")).json()["status"] == "over":
            break
        await asyncio.sleep(0.002)
    listed = [t["id"] for t in (await http.get("/api/tables")).json()]
    assert waiting in listed and done not in listed
    finished = (await http.get(f"/api/tables/{done}/record")).json()
    assert "in_progress" not in finished and len(finished["rounds"]) >= 1
    # errors have one shape everywhere, with a stable code
    missing = (await http.get("/api/tables/0123456789ab")).json()
    assert set(missing) == {"error"} and set(missing["error"]) == {"code", "message"}
    assert "table/not_found" in CODES


async def test_a_rematch_starts_a_new_match_at_the_same_seats(
    live: LiveServer, http: httpx.AsyncClient
) -> None:
    table_id, tokens = await new_table(
        http, "golf", "four-card", {"end": "holes:1"}, [None, "random"]
    )
    table = live.room.tables[table_id]
    sock = await Sock.open(live.ws_base, table_id, tokens[0])
    while not table.match.is_over:
        frame = await sock.state()
        legal = legal_of(frame)
        if legal and frame["seq"] == table.seq:
            await sock.send(type="action", action=legal[-1], seq=frame["seq"])
    await sock.send(type="rematch")
    frame = await sock.until(lambda m: m.get("type") == "update" and m["match"] == 2)
    assert frame["event"]["kind"] == "rematch" and frame["status"] == "playing"
    assert table.match_no == 2 and not table.match.is_over
    assert (await http.get(f"/api/tables/{table_id}")).json()["match"] == 2
    await sock.close()
