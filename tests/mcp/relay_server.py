"""What the Python MCP client tests share: how to start `relay mcp` on the test's store, and
how to read a successful tool result."""

import json
import os

from mcp import StdioServerParameters


def server():
    """`relay mcp` (RELAY_MCP_BIN) on the store RELAY_MCP_STORE, with only what it needs of
    the environment."""
    env = {"RELAY_DIR": os.path.abspath(os.environ["RELAY_MCP_STORE"])}
    for key in ("PATH", "HOME", "USER", "NO_COLOR", "GIT_CONFIG_NOSYSTEM"):
        if key in os.environ:
            env[key] = os.environ[key]
    return StdioServerParameters(
        command=os.path.abspath(os.environ["RELAY_MCP_BIN"]), args=["mcp"], env=env
    )


def structured(result):
    """A successful tool result's object; its text content is the same JSON."""
    assert not result.isError, result
    assert json.loads(result.content[0].text) == result.structuredContent
    return result.structuredContent
