"""relay serve's /mcp, driven by the official MCP Python SDK's Streamable HTTP client.

A remote agent as a team would run one: with a write token it lists the tools (the same as
`relay mcp`), deposits, finds the package again with a relevant pull, reads the project's feed
as a resource, subscribes to it and is notified when another client (the CLI) deposits; with
a read-only token it still reads, and its deposit is a tool error that names the scope.

Run by `cargo test --test cli mcp_http::` when RELAY_MCP_PYTHON names a python that has the
SDK. By hand: start `relay serve` on a store with two tokens, then

    RELAY_MCP_BIN=target/debug/relay RELAY_MCP_STORE=$store \\
        target/mcp-venv/bin/python tests/mcp/test_mcp_http.py URL PROJECT WRITE_TOKEN READ_TOKEN
"""

import asyncio
import os
import subprocess
import sys

import mcp.types as types
from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client

from relay_server import structured
from test_mcp_client import TOOLS


def cli_deposit(title):
    """Another client: `relay deposit` on the same store, as a person at the repository."""
    env = {"RELAY_DIR": os.path.abspath(os.environ["RELAY_MCP_STORE"])}
    for key in ("PATH", "HOME", "USER", "NO_COLOR", "GIT_CONFIG_NOSYSTEM"):
        if key in os.environ:
            env[key] = os.environ[key]
    subprocess.run(
        [os.path.abspath(os.environ["RELAY_MCP_BIN"]), "deposit", "--title", title],
        env=env, check=True, capture_output=True,
    )


async def writer(url, project, token):
    feed = f"relay://projects/{project}/packages"
    updated = asyncio.Event()
    seen = []

    async def on_message(message):
        if isinstance(message, types.ServerNotification) and isinstance(
            message.root, types.ResourceUpdatedNotification
        ):
            seen.append(str(message.root.params.uri))
            updated.set()

    headers = {"Authorization": f"Bearer {token}"}
    async with streamablehttp_client(url, headers=headers) as (read, write, session_id):
        async with ClientSession(read, write, message_handler=on_message) as session:
            init = await session.initialize()
            assert init.serverInfo.name == "relay", init
            assert init.capabilities.resources.subscribe is True, init.capabilities
            assert session_id(), "initialize opened no session"

            names = {t.name for t in (await session.list_tools()).tools}
            assert names == TOOLS, names

            deposited = structured(await session.call_tool("deposit", {
                "title": "Remote zebra cache eviction",
                "decisions_made": ["Evict the zebra cache hourly"],
            }))
            package = deposited["package"]
            assert package["created_by"]["id"] == "remote-agent", package["created_by"]
            found = structured(await session.call_tool(
                "pull", {"mode": "relevant", "query": "zebra eviction"}
            ))
            ids = [p["package"]["package_id"] for p in found["packages"]]
            assert package["package_id"] in ids, found

            listed = await session.list_resources()
            uris = {str(r.uri) for r in listed.resources}
            assert feed in uris, uris
            contents = (await session.read_resource(feed)).contents
            assert package["package_id"] in contents[0].text, contents

            await session.subscribe_resource(feed)
            # The GET stream is open since the handshake; give the deposit a moment after it.
            await asyncio.sleep(0.3)
            await asyncio.to_thread(cli_deposit, "Deposited by the CLI meanwhile")
            await asyncio.wait_for(updated.wait(), timeout=20)
            assert seen[0] == feed, seen


async def reader(url, token):
    headers = {"Authorization": f"Bearer {token}"}
    async with streamablehttp_client(url, headers=headers) as (read, write, _):
        async with ClientSession(read, write) as session:
            await session.initialize()
            pulled = structured(await session.call_tool("pull", {"mode": "latest"}))
            assert pulled["packages"], pulled
            refused = await session.call_tool("deposit", {"title": "Not allowed"})
            assert refused.isError, refused
            text = refused.content[0].text
            assert text.startswith("unauthorized:") and "read-only" in text, text
            assert "scope" in text and "`deposit`" in text, text


async def main():
    url, project, write_token, read_token = sys.argv[1:5]
    await writer(url, project, write_token)
    await reader(url, read_token)
    print("ok: remote deposit, search, resources, notification, read-only refusal")


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    asyncio.run(main())
