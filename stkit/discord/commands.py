"""The slash commands this app offers, and writing them to Discord in one request.

Definitions follow developers/interactions/application-commands.mdx ("Application Command Object"): type 1
(CHAT_INPUT); names 1 to 32 lower-case characters; descriptions 1 to 100; option types 3 (STRING),
4 (INTEGER), 5 (BOOLEAN); required options listed before optional ones; ``autocomplete`` on options
without ``choices``. ``integration_types`` [0, 1] installs them on a server and on a user's own account
(user-install); ``contexts`` [0, 1, 2] lets them run in servers, the app's DMs and other private channels.

:func:`register` replaces the application's global commands with these in one request: ``PUT
/applications/{application.id}/commands`` ("Bulk Overwrite Global Application Commands"), authorised with
the bot token (``Authorization: Bot TOKEN``, developers/reference.mdx "Authentication") or a bearer token
from the client credentials grant. A token or secret is used for those requests only: never stored, never
printed, never logged.
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
#: Where the bot token, or the client secret, may come from when no option gives it.
TOKEN_ENV = "DISCORD_BOT_TOKEN"
SECRET_ENV = "DISCORD_CLIENT_SECRET"
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


def find_secret(given: str | None, env: str) -> str | None:
    """A secret from its option (``given``), else from the environment variable ``env``; None when neither
    is set. Raises InvalidValue (naming the variable, never the value) for spaces or control characters."""
    found = (given or os.environ.get(env) or "").strip()
    if not found:
        return None
    if len(found) > 300 or any(c.isspace() or not c.isprintable() for c in found):
        raise InvalidValue(f"the secret given by option or {env} has spaces or control characters")
    return found


def api_base() -> str:
    """Discord's API: :data:`API_BASE`, or $STKIT_DISCORD_API (a loopback stand-in in tests)."""
    return os.environ.get(API_ENV, "").strip() or API_BASE


def register(
    application_id: str,
    token: str | None = None,
    *,
    client_secret: str | None = None,
    api: str | None = None,
    timeout: float = 15.0,
) -> list[dict]:
    """Overwrite the global commands of ``application_id`` with :data:`COMMANDS`: one PUT to ``api``
    (default :func:`api_base`), authorised with the bot ``token``, or else with a bearer token the client
    credentials grant gives for ``client_secret`` (one POST to ``/oauth2/token`` first, the application id
    as the client id, scope ``applications.commands.update``: developers/topics/oauth2.mdx, "Client
    Credentials Grant"). Returns the commands Discord stored. Raises StkitError with Discord's status
    (never a secret) when it refuses or cannot be reached."""
    base = (api or api_base()).rstrip("/")
    try:
        if token:
            authorization = f"Bot {token}"
        elif client_secret:
            granted = httpx.post(
                f"{base}/oauth2/token",
                data={"grant_type": "client_credentials", "scope": "applications.commands.update"},
                auth=(application_id, client_secret),
                headers={"User-Agent": USER_AGENT},
                timeout=timeout,
            )
            if granted.status_code != 200:
                raise StkitError(f"Discord refused the client credentials: HTTP {granted.status_code}")
            authorization = f"Bearer {granted.json().get('access_token', '')}"
        else:
            raise InvalidValue(f"give the bot token (--token or {TOKEN_ENV}) or the client secret")
        response = httpx.put(
            f"{base}/applications/{application_id}/commands",
            json=COMMANDS,
            headers={"Authorization": authorization, "User-Agent": USER_AGENT},
            timeout=timeout,
        )
    except (httpx.HTTPError, ValueError) as exc:
        raise StkitError(f"Discord could not be reached ({type(exc).__name__})") from None
    if response.status_code != 200:
        raise StkitError(f"Discord refused the commands: HTTP {response.status_code}")
    stored = response.json()
    return stored if isinstance(stored, list) else []
