"""The Agent Memory Protocol's example session (its Appendix A), run against `relay mcp` with
the official Python MCP client: an agent stores a lesson, later finds it by meaning, stores a
checkpoint, and resumes from it; then deletes what it no longer needs.

Environment: RELAY_MCP_BIN (the relay binary), RELAY_MCP_STORE (a store folder); when the
store's config names an embedding model, the search must find the lesson by meaning alone."""

import asyncio

from mcp import ClientSession
from mcp.client.stdio import stdio_client

import relay_server
from relay_server import structured


async def main():
    server = relay_server.server()
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            names = {t.name for t in (await session.list_tools()).tools}
            amp = {"amp_store", "amp_search", "amp_get", "amp_delete", "amp_list", "amp_status"}
            assert amp <= names, names

            # The agent learns something (and a few other things).
            stored = structured(await session.call_tool("amp_store", {"record": {
                "type": "lesson",
                "title": "PostgreSQL connection pooling",
                "content": "Always use connection pooling in production. PgBouncer recommended.",
                "tags": ["postgresql", "devops", "performance"],
            }}))
            assert stored["success"] and stored["created"], stored
            lesson_id = stored["id"]
            for title, content in [
                ("Rotate API keys quarterly", "Keys older than ninety days must be replaced."),
                ("Prefer small pull requests", "Reviewers catch more in short diffs."),
                ("Pin the CI image", "An unpinned base image broke the build twice."),
            ]:
                structured(await session.call_tool("amp_store", {"record": {
                    "type": "lesson", "title": title, "content": content,
                }}))

            # Fields of the wrong type are refused, and nothing is written.
            bad = await session.call_tool("amp_store", {"record": {
                "type": "lesson", "title": "x", "content": "y", "tags": "a,b",
            }})
            assert bad.isError, bad
            assert bad.structuredContent["error"] == "invalid_input", bad.structuredContent

            status = structured(await session.call_tool("amp_status", {}))
            assert status["stats"]["lessons"] == 4, status
            model = status["stats"]["embedding_model"]

            # Later, the agent searches for relevant knowledge.
            found = structured(await session.call_tool("amp_search", {
                "query": "database connection issues production", "type": "lesson",
            }))
            assert found["results"][0]["id"] == lesson_id, found
            assert found["results"][0]["record"]["title"] == "PostgreSQL connection pooling"
            if model:
                # By meaning alone: no word of the query is in the lesson.
                meant = structured(await session.call_tool("amp_search", {
                    "query": "too many clients open against our postgres server",
                    "type": "lesson", "limit": 3,
                }))
                assert meant["mode"] == "hybrid", meant
                assert meant["results"][0]["id"] == lesson_id, meant
                print("ok: found by meaning with", model)
            else:
                print("SKIPPED search by meaning: no embedding model configured")

            # The agent checkpoints its state, then resumes from it.
            cp = structured(await session.call_tool("amp_store", {"record": {
                "type": "checkpoint", "agent": "radarr", "working_on": "Debugging auth flow",
                "state": {"blockers": ["Missing API key for OAuth provider"]},
            }}))
            listed = structured(await session.call_tool("amp_list", {
                "type": "checkpoint", "agent": "radarr", "limit": 1,
            }))
            assert listed["total"] == 1 and not listed["has_more"], listed
            resumed = listed["records"][0]
            assert resumed["id"] == cp["id"], listed
            assert resumed["working_on"] == "Debugging auth flow", resumed
            assert resumed["state"]["blockers"] == ["Missing API key for OAuth provider"]
            assert resumed["state"]["flags"] == ["BLOCKED"], resumed
            assert resumed["agent"] == "radarr" and isinstance(resumed["created_at"], int)

            got = structured(await session.call_tool("amp_get", {"id": lesson_id}))
            assert got["record"]["severity"] == "info", got

            # Delete is a retraction: the record is gone from every read.
            gone = structured(await session.call_tool("amp_delete", {"id": cp["id"]}))
            assert gone["deleted"], gone
            missing = await session.call_tool("amp_get", {"id": cp["id"]})
            assert missing.isError, missing
            assert missing.structuredContent["error"] == "package_not_found", missing
            again = structured(await session.call_tool("amp_list", {"type": "checkpoint"}))
            assert again["total"] == 0, again
    print("ok: the AMP example session against relay mcp")


if __name__ == "__main__":
    asyncio.run(main())
