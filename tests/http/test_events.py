"""The event stream of `relay serve` (GET /v1/projects/{id}/events, Server-Sent Events) read
with httpx, a client relay did not write: events arrive as deposits land, and a client that
disconnects mid-stream and reconnects with Last-Event-ID gets exactly what it missed.

    python test_events.py BASE_URL PROJECT CURSOR [TOKEN]

CURSOR is where to start (from `relay watch --cursor`), so no deposit can slip in between.
Exits non-zero with a message on the first failure.
"""

import datetime
import json
import sys
import uuid

import httpx

BASE, PROJECT, CURSOR = sys.argv[1], sys.argv[2], sys.argv[3]
HEADERS = {"Authorization": f"Bearer {sys.argv[4]}"} if len(sys.argv) > 4 else {}
TIMEOUT = httpx.Timeout(20.0)


# Who the packages say made them; a token's own actor once the server names it.
actor = {"id": "events-test", "type": "agent"}


def deposit(client, title):
    """Deposits a whole wire package (relay serve fills nothing in); when the token writes as
    another actor, the 403 names it (relay's `actor` member) and the package is sent again."""
    global actor
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    package = {"package_id": "pkg_" + uuid.uuid4().hex, "project_id": PROJECT,
               "relay_version": "0.1", "title": title, "status": "complete",
               "package_type": "standard", "review_type": "none", "created_at": now}
    r = client.post(f"/v1/projects/{PROJECT}/packages", json=dict(package, created_by=actor))
    if r.status_code == 403 and "actor" in r.json():
        actor = r.json()["actor"]
        r = client.post(f"/v1/projects/{PROJECT}/packages", json=dict(package, created_by=actor))
    assert r.status_code == 201, (r.status_code, r.text)
    return r.json()["package"]["package_id"]


def events(response):
    """Yields (id, event, data) for each event of an SSE response; skips comments."""
    fields = {}
    for line in response.iter_lines():
        if line == "":
            if "data" in fields:
                yield fields.get("id"), fields.get("event"), json.loads(fields["data"])
            fields = {}
        elif line.startswith(":"):
            continue
        else:
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            fields[name] = fields[name] + "\n" + value if name in fields else value


def read(client, n, params=None, headers=None):
    """Opens the stream, deposits nothing, and returns its first n events."""
    got = []
    with client.stream(
        "GET", f"/v1/projects/{PROJECT}/events", params=params, headers=headers
    ) as r:
        assert r.status_code == 200, (r.status_code, r.read())
        assert r.headers["content-type"].startswith("text/event-stream"), r.headers
        for event in events(r):
            got.append(event)
            if len(got) == n:
                break
    return got


def main():
    with httpx.Client(base_url=BASE, headers=HEADERS, timeout=TIMEOUT) as client:
        ids = [deposit(client, f"sse {i}") for i in range(3)]
        # The first two, then the client goes away mid-stream.
        first = read(client, 2, params={"since": CURSOR})
        assert [e[2]["record"]["package"]["package_id"] for e in first] == ids[:2], first
        for event_id, kind, data in first:
            assert kind == "package", kind
            assert event_id == data["cursor"], (event_id, data)
            assert set(data) == {"cursor", "kind", "project_id", "record"}, data
            assert data["project_id"] == PROJECT
        ids += [deposit(client, f"sse {i}") for i in range(3, 5)]
        # Reconnecting with Last-Event-ID: exactly what came after, nothing repeated.
        rest = read(client, 3, headers={"Last-Event-ID": first[-1][0]})
        got = [e[2]["record"]["package"]["package_id"] for e in rest]
        assert got == ids[2:], (got, ids[2:])

        # A cursor that is not one is refused before any stream starts.
        r = client.get(f"/v1/projects/{PROJECT}/events", params={"since": "w1.%%%"})
        assert r.status_code == 400, (r.status_code, r.text)
        assert r.json()["error"] == "invalid_input", r.text
        r = client.get("/v1/projects/no-such-project/events")
        assert r.status_code == 404, (r.status_code, r.text)
    print("ok: events, resume with Last-Event-ID, bad cursor, unknown project")


if __name__ == "__main__":
    main()
