"""relay mcp, driven by the official MCP Python SDK (`mcp` on PyPI, pinned in requirements.txt).

A real client that relay did not write: it performs the handshake, lists the tools, deposits
a package, finds it again with a relevant pull, orients, and gets a tool error back.

Run by `cargo test --test cli mcp_official_python_sdk_client` when RELAY_MCP_PYTHON names a
python that has the SDK (.ci/run sets it up). By hand, from the repository root:

    python3 -m venv target/mcp-venv
    target/mcp-venv/bin/pip install -r tests/mcp/requirements.txt
    cargo build
    store=$(mktemp -d)/.relay && target/debug/relay init --store "$store" --project demo
    RELAY_MCP_BIN=target/debug/relay RELAY_MCP_STORE="$store" \\
        target/mcp-venv/bin/python tests/mcp/test_mcp_client.py

RELAY_MCP_BIN is the relay binary; RELAY_MCP_STORE an existing store (`relay init`).
"""

import asyncio

from mcp import ClientSession
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import McpError

import relay_server
from relay_server import structured

TOOLS = {
    "deposit", "pull", "orient", "orchestrate",
    "facts_assert", "facts_invalidate", "facts_get", "facts_list",
    "review_flag", "review_list", "review_approve", "review_request_changes",
    "session_start", "session_end", "status", "conformance", "watch", "retract",
    "amp_store", "amp_search", "amp_get", "amp_delete", "amp_list", "amp_status",
}


async def main():
    server = relay_server.server()
    checks = 0
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            assert init.serverInfo.name == "relay", init
            assert init.capabilities.tools is not None, init
            assert "orient" in (init.instructions or ""), init
            assert "`conformance`" in (init.instructions or ""), init
            checks += 1

            listed = await session.list_tools()
            names = {t.name for t in listed.tools}
            assert names == TOOLS, names
            deposit = next(t for t in listed.tools if t.name == "deposit")
            # The title comes as `title` or inside `package` (§8.1), so neither is required.
            assert deposit.inputSchema["required"] == [], deposit.inputSchema
            props = deposit.inputSchema["properties"]
            assert props["title"]["type"] == "string" and props["package"]["type"] == "object", props
            assert deposit.inputSchema["additionalProperties"] is False
            checks += 1

            descriptor = structured(await session.call_tool("conformance", {}))
            assert descriptor["conformance_level"] == "L3", descriptor
            assert descriptor["capabilities"]["x-keyword_search"] is True, descriptor
            assert descriptor["capabilities"]["semantic_search"] is False, descriptor
            checks += 1

            stored = structured(await session.call_tool("deposit", {
                "title": "Connection pool leak fixed in the billing worker",
                "decisions_made": ["Cap the pool at 20 connections per worker"],
                "open_questions": ["Should the cap be configurable?"],
                "handoff_note": "Watch the pool metrics after Friday's deploy",
                "tags": ["billing"],
                "actor": "python-sdk",
                "actor_type": "agent",
            }))
            package = stored["package"]
            assert stored["hash"].startswith("sha256:"), stored
            by = package["created_by"]
            assert (by["id"], by["type"]) == ("python-sdk", "agent"), package
            checks += 1

            found = structured(await session.call_tool(
                "pull", {"mode": "relevant", "query": "leaking connection pools", "limit": 3}
            ))
            assert found["packages"], found
            top = found["packages"][0]
            assert top["package"] == package, found
            assert top["score"] > 0 and "title" in top["matched"], top
            checks += 1

            bundle = structured(await session.call_tool("orient", {}))
            assert bundle["recent_packages"][0]["package_id"] == package["package_id"], bundle
            assert bundle["open_questions"] == ["Should the cap be configurable?"], bundle
            checks += 1

            missing = await session.call_tool(
                "pull", {"mode": "specific", "id": "pkg_00000000000000000000000000000000"}
            )
            assert missing.isError, missing
            assert missing.content[0].text.startswith("package_not_found: "), missing
            assert missing.structuredContent["error"] == "package_not_found", missing
            bad = await session.call_tool("pull", {"mode": "latest", "limit": 0})
            assert bad.isError and "invalid_input" in bad.content[0].text, bad
            checks += 1

            try:
                await session.call_tool("no_such_tool", {})
            except McpError as e:
                assert e.error.code == -32602, e.error
            else:
                raise AssertionError("an unknown tool must be a JSON-RPC error")
            await session.send_ping()
            checks += 1
    print(f"ok: {checks} checks against relay mcp")


if __name__ == "__main__":
    asyncio.run(main())
