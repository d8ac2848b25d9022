"""The slash commands this app offers, and writing them to Discord in one request.

Definitions follow developers/interactions/application-commands.mdx ("Application Command Object"): type 1
(CHAT_INPUT); names 1 to 32 lower-case characters; descriptions 1 to 100; option types 3 (STRING),
4 (INTEGER), 5 (BOOLEAN); required options listed before optional ones; ``autocomplete`` on options
without ``choices``. ``integration_types`` [0, 1] installs them on a server and on a user's own account
(user-install); ``contexts`` [0, 1, 2] lets them run in servers, the app's DMs and other private channels.

:func:`register` replaces the application's global commands with these in one request: ``PUT
/applications/{application.id}/commands`` ("Bulk Overwrite Global Application Commands"), authorised with
the bot token (``Authorization: Bot TOKEN``, developers/reference.mdx "Authentication"). The token is
used for that request only: never stored, never printed, never logged.
"""

from __future__ import annotations

import os
import re
from typing import Any

import httpx

from stkit.discord.webhook import USER_AGENT
from stkit.errors import InvalidValue, StkitError

API_BASE = "https://discord.com/api/v10"
#: An environment variable naming another API base (a loopback stand-in in tests).
API_ENV = "STKIT_DISCORD_API"
#: Where the token may come from when no option gives it.
TOKEN_ENV = "DISCORD_BOT_TOKEN"
STRING, INTEGER, BOOLEAN = 3, 4, 5


def _option(name: str, kind: int, description: str, *, required: bool = False, **more: Any) -> dict:
    return {"name": name, "type": kind, "description": description, "required": required, **more}


POOL = _option(
    "pool",
    STRING,
    "Traits like Dexterity + Brawl + 2, or a number of dice",
    required=True,
    autocomplete=True,
    max_length=200,
)
DIFFICULTY = _option("difficulty", INTEGER, "Difficulty, 2 to 10 (default: the chronicle's)", min_value=2, max_value=10)
WILLPOWER = _option("willpower", BOOLEAN, "Spend Willpower: one success the 1s cannot cancel")
SECRET = _option("secret", BOOLEAN, "Only the Storyteller sees the dice")
CHARACTER = _option("character", STRING, "Storyteller: whose sheet rolls", autocomplete=True, max_length=100)

COMMANDS: list[dict] = [
    {
        "name": "roll",
        "description": "Roll a dice pool against a difficulty (Werewolf: The Apocalypse Revised)",
        "options": [
            POOL,
            DIFFICULTY,
            WILLPOWER,
            _option("specialty", BOOLEAN, "The roll uses a specialty of one of its Traits"),
            SECRET,
            CHARACTER,
            _option("seed", INTEGER, "Storyteller: the seed, to replay a roll", min_value=0),
        ],
    },
    {
        "name": "odds",
        "description": "The exact chances of a roll, under the chronicle's house rules",
        "options": [POOL, DIFFICULTY, WILLPOWER, CHARACTER],
    },
    {
        "name": "claim",
        "description": "Claim your character (or the Storyteller's seat) with the code of your table link",
        "options": [_option("code", STRING, "The code at the end of your table link", required=True, max_length=200)],
    },
    {
        "name": "saved",
        "description": "Roll one of your character's saved rolls",
        "options": [
            _option("name", STRING, "The saved roll", required=True, autocomplete=True, max_length=100),
            WILLPOWER,
            SECRET,
            CHARACTER,
        ],
    },
    {
        "name": "extended",
        "description": "An extended action: its tally, or roll for it",
        "options": [
            _option("action", STRING, "The extended action (name or id)", required=True, autocomplete=True),
            _option("roll", BOOLEAN, "Roll for it now"),
            WILLPOWER,
        ],
    },
    {"name": "init", "description": "Storyteller: roll initiative for the open scene", "options": []},
]
for _command in COMMANDS:
    _command |= {"type": 1, "integration_types": [0, 1], "contexts": [0, 1, 2]}


def check_definitions(commands: list[dict]) -> list[str]:
    """Every documented rule the definitions break, one line each (empty: none)."""
    problems = []
    name_rule = re.compile(r"^[-_'\w]{1,32}$")
    for c in commands:
        for item in [c, *c.get("options", [])]:
            if not name_rule.match(item["name"]) or item["name"] != item["name"].lower():
                problems.append(f"name {item['name']!r}")
            if not 1 <= len(item["description"]) <= 100:
                problems.append(f"description of {item['name']!r} is {len(item['description'])} characters")
        seen_optional = False
        for o in c.get("options", []):
            if not o.get("required"):
                seen_optional = True
            elif seen_optional:
                problems.append(f"{c['name']}: required option {o['name']!r} after an optional one")
        if len(c.get("options", [])) > 25:
            problems.append(f"{c['name']}: more than 25 options")
    return problems


def find_token(token: str | None) -> str:
    """The bot token: ``token`` when given, else $DISCORD_BOT_TOKEN. Raises InvalidValue when neither is."""
    found = (token or os.environ.get(TOKEN_ENV) or "").strip()
    if not found or len(found) > 200 or any(c.isspace() or not c.isprintable() for c in found):
        raise InvalidValue(f"give the bot token with --token or the environment variable {TOKEN_ENV}")
    return found


def api_base() -> str:
    """Discord's API: :data:`API_BASE`, or $STKIT_DISCORD_API (a loopback stand-in in tests)."""
    return os.environ.get(API_ENV, "").strip() or API_BASE


def register(application_id: str, token: str, *, api: str | None = None, timeout: float = 15.0) -> list[dict]:
    """Overwrite the global commands of ``application_id`` with :data:`COMMANDS` (one PUT to ``api``, default
    :func:`api_base`). Returns the commands Discord stored. Raises StkitError with Discord's status (never
    the token) when it refuses."""

    url = f"{(api or api_base()).rstrip('/')}/applications/{application_id}/commands"
    headers = {"Authorization": f"Bot {token}", "User-Agent": USER_AGENT}
    try:
        response = httpx.put(url, json=COMMANDS, headers=headers, timeout=timeout)
    except httpx.HTTPError as exc:
        raise StkitError(f"Discord could not be reached ({type(exc).__name__})") from None
    if response.status_code != 200:
        raise StkitError(f"Discord refused the commands: HTTP {response.status_code}")
    stored = response.json()
    return stored if isinstance(stored, list) else []
