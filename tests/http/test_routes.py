"""relay serve, driven by httpx (pinned in requirements.txt): an HTTP client relay did not write.

It exercises every route of `relay serve` without a token (loopback, none live), then with
tokens: the 401s (none, wrong, revoked), the 403s (a project outside the token's scope, a
write with a read-only token, a record naming another actor), and the bad inputs (malformed
JSON, a wrong content type, a body over the limit, `..` and percent-encoded ids in the path,
an unknown route, a wrong method, a slow client), each checked to leave the store's logs as
they were.

Run by `cargo test --test cli python_httpx_client_drives_every_route`, which starts the
server in a fresh store holding the projects `demo` (the default) and
`other`, when RELAY_MCP_PYTHON names a python with httpx (.ci/run sets it up). By hand, from
the repository root:

    target/mcp-venv/bin/pip install -r tests/http/requirements.txt
    cargo build && cd "$(mktemp -d)"
    relay=$OLDPWD/target/debug/relay
    $relay init --project demo && $relay projects create other
    $relay serve --listen 127.0.0.1:7700 &
    RELAY_HTTP_BIN=$relay RELAY_HTTP_URL=http://127.0.0.1:7700 \\
        $OLDPWD/target/mcp-venv/bin/python $OLDPWD/tests/http/test_routes.py

The working folder holds the store (.relay/); RELAY_HTTP_BIN is the relay binary, used to
make and revoke tokens while the server runs.
"""

import datetime
import hashlib
import json
import os
import socket
import subprocess
import urllib.parse
import uuid

import httpx

BIN = os.environ["RELAY_HTTP_BIN"]
URL = os.environ["RELAY_HTTP_URL"]
STORE = os.path.join(os.getcwd(), ".relay")
HOST, PORT = urllib.parse.urlsplit(URL).hostname, urllib.parse.urlsplit(URL).port
checks = 0


def ok(what):
    global checks
    checks += 1
    print(f"ok: {what}", flush=True)


def whole(title, project="demo", by=None, **members):
    """A whole wire package (§6.1): relay serve takes a deposit as the protocol does, with
    every required member given and none filled in."""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    package = {"package_id": "pkg_" + uuid.uuid4().hex, "project_id": project,
               "relay_version": "0.1", "title": title, "status": "complete",
               "package_type": "standard", "review_type": "none", "created_at": now,
               "created_by": by or {"id": "tester", "type": "human"}}
    package.update(members)
    return package


def relay(*args):
    """Runs the relay CLI in the store's folder; returns its JSON output."""
    out = subprocess.run([BIN, *args, "--json"], capture_output=True, text=True)
    assert out.returncode == 0, (args, out.stderr)
    return json.loads(out.stdout)


def snapshot():
    """The bytes of every log (and the per-clone files that writes touch), by path."""
    seen = {}
    for folder, dirs, files in os.walk(STORE):
        dirs[:] = [d for d in dirs if os.path.join(folder, d) != os.path.join(STORE, "cache")]
        for name in files:
            if name.endswith(".ndjson") or name == "session.json":
                path = os.path.join(folder, name)
                with open(path, "rb") as f:
                    seen[path] = hashlib.sha256(f.read()).hexdigest()
    return seen


def expect(response, status, code=None):
    """The response has this status (and error code); returns its JSON body."""
    assert response.status_code == status, (response.request.method, response.request.url,
                                            response.status_code, response.text)
    assert response.headers["content-type"] == "application/json", response.headers
    body = response.json()
    if code is not None:
        assert body["error"] == code, body
        assert isinstance(body["message"], str) and body["message"], body
    return body


def refused(response, status, code):
    """A refused request: its error, and nothing written (checked by the caller's snapshot)."""
    return expect(response, status, code)


def raw(request_bytes, at=None, timeout=20):
    """Sends raw bytes on a new connection (to the server at `at`, by default the one under
    test); returns everything the server sent before closing."""
    with socket.create_connection(at or (HOST, PORT), timeout=timeout) as s:
        s.sendall(request_bytes)
        chunks = []
        while True:
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks).decode("utf-8", "replace")


def open_routes(c):
    """Every route, without a token: loopback, and no token is live."""
    d = expect(c.get("/v1/conformance"), 200)
    assert d["protocol_version"] == "0.1" and d["conformance_level"] == "L3", d
    assert d["capabilities"]["x-keyword_search"] is True, d
    ok("conformance")

    pkg = whole("Billing migration plan", decisions_made=["Move invoices to Postgres"],
                open_questions=["Who owns the cutover?"], handoff_note="Run the dry run next",
                tags=["billing"])
    done = expect(c.post("/v1/projects/demo/packages", json=pkg), 201)
    first = done["package"]
    assert done["hash"].startswith("sha256:"), done
    assert first["project_id"] == "demo" and first["created_by"]["id"] == "tester", first
    again = expect(c.post("/v1/projects/demo/packages", json=first), 200)
    assert again == done, (again, done)
    before = snapshot()
    clash = dict(first, title="Another title")
    refused(c.post("/v1/projects/demo/packages", json=clash), 409, "duplicate_package_id")
    refused(c.post("/v1/projects/demo/packages", json=whole("x", project="other")),
            400, "invalid_input")
    secret = whole("Key", content_md="aws AKIAIOSFODNN7EXAMPLE")
    refused(c.post("/v1/projects/demo/packages", json=secret), 400, "secret_detected")
    refused(c.post("/v1/projects/nope/packages", json=whole("x", project="nope")),
            404, "project_not_found")
    for member in ["package_id", "status", "created_by", "project_id"]:
        lacking = whole("Lacking")
        del lacking[member]
        answer = refused(c.post("/v1/projects/demo/packages", json=lacking), 400,
                         "invalid_schema")
    offset = whole("Offset", created_at="2026-03-01T12:00:00+02:00")
    refused(c.post("/v1/projects/demo/packages", json=offset), 400, "invalid_schema")
    assert snapshot() == before
    ok("deposit: 201, identical retry 200, clash 409, secrets and projects checked, "
       "a whole package in UTC or 400")

    latest = expect(c.get("/v1/projects/demo/packages", params={"mode": "latest", "limit": 5}), 200)
    assert [p["package_id"] for p in latest["packages"]] == [first["package_id"]], latest
    expect(c.get("/v1/projects/demo/packages"), 200)
    tagged = expect(c.get("/v1/projects/demo/packages", params={"tag": "nothing"}), 200)
    assert tagged["packages"] == [], tagged
    found = expect(c.get("/v1/projects/demo/packages",
                         params={"mode": "relevant", "query": "invoices postgres", "limit": 3}), 200)
    # One shape for latest and relevant: wire packages; a relevant pull adds x-ranking.
    assert found["packages"][0] == first, found
    assert len(found["x-ranking"]) == len(found["packages"]), found
    top = found["x-ranking"][0]
    assert top["package_id"] == first["package_id"] and top["score"] > 0 and top["matched"], found
    refused(c.get("/v1/projects/demo/packages", params={"mode": "relevant"}), 400, "invalid_schema")
    refused(c.get("/v1/projects/demo/packages", params={"mode": "relevant", "query": "x",
                                                        "search": "semantic"}),
            501, "search_not_supported")
    refused(c.get("/v1/projects/demo/packages", params={"mode": "specific"}), 400, "invalid_input")
    refused(c.get("/v1/projects/demo/packages", params={"colour": "red"}), 400, "invalid_schema")
    ok("pull latest and relevant")

    one = expect(c.get(f"/v1/packages/{first['package_id']}"), 200)
    assert one == first, one
    refused(c.get("/v1/packages/pkg_00000000000000000000000000000000"), 404, "package_not_found")
    ok("pull specific")

    bundle = expect(c.get("/v1/projects/demo/orient", params={"window_days": 14}), 200)
    assert set(bundle) >= {"project", "recent_packages", "active_facts", "open_questions",
                           "window_days", "generated_at"}, bundle
    assert bundle["open_questions"] == ["Who owns the cutover?"], bundle
    refused(c.get("/v1/projects/demo/orient", params={"window_days": 99999}), 400, "invalid_input")
    ok("orient")

    digest = expect(c.get("/v1/orchestrate", params={"project": "demo", "focus": "billing",
                                                     "snippets": 5}), 200)
    assert digest["scope"] == "project" and digest["snippets"], digest
    world = expect(c.get("/v1/orchestrate"), 200)
    assert world["scope"] == "global", world
    assert {p["project_id"] for p in world["projects"]} == {"demo", "other"}, world
    ok("orchestrate, one project and global")

    pid = first["package_id"]
    draft = expect(c.post("/v1/projects/demo/packages",
                          json=whole("Schema change", status="draft")), 201)["package"]
    flagged = expect(c.post(f"/v1/packages/{draft['package_id']}/flag",
                            json={"review_type": "human", "note": "Needs a DBA"}), 200)
    assert flagged["status"] == "awaiting_review" and flagged["review_type"] == "human", flagged
    pending = expect(c.get("/v1/projects/demo/reviews"), 200)["packages"]
    assert [p["package"]["package_id"] for p in pending] == [draft["package_id"]], pending
    assert pending[0]["note"] == "Needs a DBA", pending
    sent_back = expect(c.post(f"/v1/packages/{draft['package_id']}/request-changes",
                              json={"note": "Add a rollback step"}), 200)
    assert sent_back["status"] == "revision_requested", sent_back
    expect(c.post(f"/v1/packages/{draft['package_id']}/flag", json={"review_type": "human"}), 200)
    approved = expect(c.post(f"/v1/packages/{draft['package_id']}/approve"), 200)
    assert approved["status"] == "complete", approved
    for_agents = expect(c.post("/v1/projects/demo/packages",
                               json=whole("For an agent", status="draft")), 201)["package"]
    expect(c.post(f"/v1/packages/{for_agents['package_id']}/flag",
                  json={"review_type": "agent"}), 200)
    before = snapshot()
    refused(c.post(f"/v1/packages/{for_agents['package_id']}/flag",
                   json={"review_type": "human"}), 400, "invalid_transition")
    # §5.3: an agent's review is for an agent; the server writes as the human `tester`.
    refused(c.post(f"/v1/packages/{for_agents['package_id']}/approve"), 403, "unauthorized")
    refused(c.post(f"/v1/packages/{pid}/approve", json={}), 400, "invalid_transition")
    refused(c.post(f"/v1/packages/{pid}/flag", json={}), 400, "invalid_schema")
    refused(c.post(f"/v1/packages/{pid}/request-changes", json={}), 400, "invalid_schema")
    assert snapshot() == before
    ok("review: flag, reviews, request-changes, approve; no second flag; reviews by kind")

    facts = "/v1/projects/demo/facts"
    made = expect(c.post(facts, json={"subject": "api", "predicate": "status", "value": "beta",
                                      "tags": ["release"]}), 201)
    assert made["unchanged"] is False and made["fact"]["value"] == "beta", made
    same = expect(c.post(facts, json={"subject": "api", "predicate": "status", "value": "beta",
                                      "tags": ["release"]}), 200)
    assert same["unchanged"] is True, same
    between = made["fact"]["valid_from"]
    newer = expect(c.post(facts, json={"subject": "api", "predicate": "status", "value": "live",
                                       "confidence": 0.9, "source_package_id": pid}), 201)
    assert newer["superseded"] == [made["fact"]["fact_id"]], newer
    current = expect(c.get(facts), 200)["facts"]
    assert [f["value"] for f in current] == ["live"], current
    then = expect(c.get(facts, params={"at": between, "subject": "api"}), 200)["facts"]
    assert [f["value"] for f in then] == ["beta"], then
    history = expect(c.get(facts + "/history", params={"subject": "api", "predicate": "status"}),
                     200)["facts"]
    assert [f["value"] for f in history] == ["beta", "live"], history
    refused(c.get(facts + "/history", params={"subject": "api", "predicate": "none"}),
            404, "fact_not_found")
    refused(c.get(facts + "/history", params={"subject": "api"}), 400, "invalid_input")
    gone = expect(c.delete(facts, params={"subject": "api", "predicate": "status"}), 200)
    assert gone == {"invalidated": 1}, gone
    assert expect(c.delete(facts, params={"subject": "api", "predicate": "status"}),
                  200) == {"invalidated": 0}
    before = snapshot()
    refused(c.post(facts, json={"subject": "s", "predicate": "p"}), 400, "invalid_schema")
    refused(c.post(facts, json={"subject": "s", "predicate": "p", "value": "v",
                                "valid_from": "someday"}), 400, "invalid_input")
    assert snapshot() == before
    ok("facts: assert, unchanged, supersede, current, at, history, invalidate")

    started = expect(c.post("/v1/projects/demo/sessions", json={"callsign": "coral-heron"}), 201)
    sid = started["session_id"]
    assert started["callsign"] == "coral-heron" and started["ended_at"] is None, started
    listed = expect(c.get("/v1/projects/demo/sessions"), 200)["sessions"]
    assert sid in [s["session_id"] for s in listed], listed
    in_session = {"id": "tester", "type": "human", "session_id": sid}
    inside = expect(c.post("/v1/projects/demo/packages", params={"session": "coral-heron"},
                           json=whole("In a session", by=in_session)), 201)["package"]
    assert inside["created_by"]["session_id"] == sid, inside
    ended = expect(c.post(f"/v1/sessions/{sid}/end"), 200)
    assert ended["ended_at"] and ended["packages_deposited"] == [inside["package_id"]], ended
    active = expect(c.get("/v1/projects/demo/sessions", params={"active": "true"}), 200)
    assert active["sessions"] == [], active
    refused(c.post("/v1/sessions/sess_none/end"), 404, "session_not_found")
    ok("sessions: start, list, deposit in one, end")
    return first


def bad_inputs(c):
    """Requests the server refuses before any operation runs; none writes anything."""
    before = snapshot()
    deposit = "/v1/projects/demo/packages"
    refused(c.post(deposit, content=b'{"title": "broken',
                   headers={"content-type": "application/json"}), 400, "invalid_schema")
    refused(c.post(deposit, content=b"[1, 2]", headers={"content-type": "application/json"}),
            400, "invalid_schema")
    refused(c.post(deposit, content=b'{"title": "t"}', headers={"content-type": "text/plain"}),
            415, "unsupported_media_type")
    refused(c.post(deposit, data={"title": "a form"}), 415, "unsupported_media_type")
    big = json.dumps({"title": "big", "content_md": "x" * (5 << 20)}).encode()
    refused(c.post(deposit, content=big, headers={"content-type": "application/json"}),
            413, "payload_too_large")
    refused(c.get("/v1/nowhere"), 404, "not_found")
    refused(c.get("/v1/projects/demo"), 404, "not_found")
    refused(c.put("/v1/conformance"), 405, "method_not_allowed")
    refused(c.delete("/v1/projects/demo/packages"), 405, "method_not_allowed")
    refused(c.get("/v1/projects/demo/packages", params={"limit": "-1"}), 400, "invalid_input")
    ok("malformed JSON, wrong content type, too large, unknown route, wrong method")

    # Paths as the client sends them, unnormalised: httpx would resolve `..` itself.
    def raw_get(path, body=b""):
        head = (f"POST {path} HTTP/1.1\r\nHost: {HOST}:{PORT}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
        answer = raw(head + body)
        status = int(answer.split(" ", 2)[1])
        return status, json.loads(answer.split("\r\n\r\n", 1)[1])

    title = b'{"title": "escape"}'
    for path, status, code in [
        ("/v1/projects/../packages", 404, "project_not_found"),
        ("/v1/projects/..%2F..%2F..%2Ftmp/packages", 404, "project_not_found"),
        ("/v1/projects/%2e%2e/packages", 404, "project_not_found"),
        ("/v1/projects/demo%00/packages", 400, "invalid_input"),  # NUL is refused everywhere
        ("/v1/projects/%ff%fe/packages", 400, "invalid_input"),
        ("/v1/projects/demo/../../packages", 404, "not_found"),
    ]:
        got, body = raw_get(path, title)
        assert (got, body["error"]) == (status, code), (path, got, body)
    assert not os.path.exists(os.path.join(os.path.dirname(STORE), "tmp")), "no path escaped"
    got, body = raw_get("/v1/packages/..%2F..%2Fconfig.toml/flag", b'{"review_type": "human"}')
    assert (got, body["error"]) == (404, "package_not_found"), body
    ok("`..` and percent-encoded ids: never a path")

    # A slow client: headers that never end lose the connection, a body that never ends is a
    # 408; either way within the server's time limit, and no worker is held. A second server
    # on the same store, with a limit of 1 s, so that this one's stays roomy for a busy machine.
    slow = subprocess.Popen([BIN, "serve", "--listen", "127.0.0.1:0", "--timeout", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        line = slow.stdout.readline().decode()
        assert line.startswith("listening on http://"), line
        address = urllib.parse.urlsplit(line.split()[-1])
        at = (address.hostname, address.port)
        answer = raw(b"GET /v1/conformance HTTP/1.1\r\nHost: rel", at=at)
        assert answer == "" or answer.startswith("HTTP/1.1 408"), answer
        answer = raw(f"POST /v1/projects/demo/packages HTTP/1.1\r\nHost: {at[0]}:{at[1]}\r\n".encode() +
                     b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"title\"",
                     at=at)
        assert answer.startswith("HTTP/1.1 408"), answer
        assert json.loads(answer.split("\r\n\r\n", 1)[1])["error"] == "request_timeout", answer
        assert httpx.get(line.split()[-1] + "/v1/conformance").status_code == 200
    finally:
        slow.terminate()
        assert slow.wait(timeout=30) == 0, "relay serve exits 0 on SIGTERM"
    ok("slow headers and a slow body time out")
    assert snapshot() == before, "a refused request wrote something"
    ok("no bad request wrote anything")


def with_tokens(c, first):
    """Once a token is live, every route but /v1/conformance needs one."""
    admin = relay("token", "create", "--actor", "ci-bot", "--actor-type", "script")
    scoped = relay("token", "create", "--actor", "claude", "--scope", "other")
    reader = relay("token", "create", "--actor", "dashboard", "--read-only")
    auth = lambda t: {"authorization": f"Bearer {t['token']}"}  # noqa: E731
    before = snapshot()

    missing = c.get("/v1/projects/demo/packages")
    refused(missing, 401, "unauthenticated")
    assert missing.headers["www-authenticate"].startswith("Bearer"), missing.headers
    refused(c.get("/v1/projects/demo/packages", headers={"authorization": "Bearer relay_nope"}),
            401, "unauthenticated")
    refused(c.get("/v1/projects/demo/packages", headers={"authorization": "Basic dXNlcjpw"}),
            401, "unauthenticated")
    refused(c.post("/v1/projects/demo/packages", json=whole("anonymous")),
            401, "unauthenticated")
    expect(c.get("/v1/conformance"), 200)
    assert snapshot() == before
    ok("401 without a token, or with a wrong one; conformance stays open")

    ci_bot = {"id": "ci-bot", "type": "script"}
    done = expect(c.post("/v1/projects/demo/packages", headers=auth(admin),
                         json=whole("From CI", by=ci_bot, status="draft")), 201)
    assert done["package"]["created_by"] == {"id": "ci-bot", "type": "script"}, done
    fact = expect(c.post("/v1/projects/demo/facts", headers=auth(admin),
                         json={"subject": "ci", "predicate": "state", "value": "green"}), 201)
    assert fact["fact"]["asserted_by"] == {"id": "ci-bot", "type": "script"}, fact
    flagged = expect(c.post(f"/v1/packages/{done['package']['package_id']}/flag",
                            headers=auth(admin), json={"review_type": "human"}), 200)
    assert flagged["status"] == "awaiting_review", flagged
    ok("a token's writes are its actor's")

    before = snapshot()
    forged = refused(c.post("/v1/projects/demo/packages", headers=auth(admin),
                            json=whole("Forged", by={"id": "ada", "type": "human"})),
                     403, "unauthorized")
    assert forged["actor"] == ci_bot, forged
    refused(c.post("/v1/projects/demo/facts", headers=auth(admin),
                   json={"subject": "s", "predicate": "p", "value": "v",
                         "asserted_by": {"id": "ada"}}), 403, "unauthorized")
    refused(c.get("/v1/projects/demo/packages", headers=auth(scoped)), 403, "unauthorized")
    refused(c.get("/v1/projects/demo/orient", headers=auth(scoped)), 403, "unauthorized")
    refused(c.get(f"/v1/packages/{first['package_id']}", headers=auth(scoped)),
            403, "unauthorized")
    refused(c.post("/v1/projects/demo/packages", headers=auth(scoped), json=whole("x")),
            403, "unauthorized")
    refused(c.post("/v1/projects/demo/packages", headers=auth(reader), json=whole("x")),
            403, "unauthorized")
    refused(c.delete("/v1/projects/demo/facts", headers=auth(reader),
                     params={"subject": "ci", "predicate": "state"}), 403, "unauthorized")
    refused(c.post(f"/v1/packages/{first['package_id']}/flag", headers=auth(reader),
                   json={"review_type": "human"}), 403, "unauthorized")
    refused(c.post("/v1/projects/demo/sessions", headers=auth(reader), json={}),
            403, "unauthorized")
    assert snapshot() == before
    ok("403: another actor, a project outside the scope, a write with a read-only token")

    expect(c.get("/v1/projects/other/packages", headers=auth(scoped)), 200)
    mine = expect(c.get("/v1/orchestrate", headers=auth(scoped)), 200)
    assert [p["project_id"] for p in mine["projects"]] == ["other"], mine
    expect(c.get("/v1/projects/demo/reviews", headers=auth(reader)), 200)
    expect(c.get("/v1/projects/demo/facts", headers=auth(reader)), 200)
    session = expect(c.post("/v1/projects/other/sessions", headers=auth(scoped), json={}), 201)
    assert session["actor_id"] == "claude", session
    refused(c.post(f"/v1/sessions/{session['session_id']}/end", headers=auth(admin)),
            403, "unauthorized")
    expect(c.post(f"/v1/sessions/{session['session_id']}/end", headers=auth(scoped)), 200)
    ok("a scoped token sees its projects only; a token ends its own sessions only")

    relay("token", "revoke", scoped["token_id"])
    gone = refused(c.get("/v1/projects/other/packages", headers=auth(scoped)),
                   401, "unauthenticated")
    assert "revoked" in gone["message"], gone
    ok("401 once revoked")


def main():
    with httpx.Client(base_url=URL, timeout=30) as c:
        first = open_routes(c)
        bad_inputs(c)
        with_tokens(c, first)
    print(f"ok: {checks} checks passed")


if __name__ == "__main__":
    main()
