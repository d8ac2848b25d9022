"""``GET /join/TOKEN``: a join link checks the token and sets it as an HttpOnly, SameSite=Strict cookie (Secure
over HTTPS). On a server of many chronicles the cookie is the chronicle's own (its name and its path
``/t/KEY/``), so one browser holds a link of each chronicle at once and each reaches only its own."""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from stkit.web.deps import TableDep

router = APIRouter()

#: A join cookie's life when its link does not expire: a year.
MAX_COOKIE_SECONDS = 60 * 60 * 24 * 365


@router.get("/join/{token}")
def join(token: str, request: Request, table: TableDep) -> Response:
    holder = table.holder_of(token)
    max_age = MAX_COOKIE_SECONDS
    if holder.expires_at is not None:  # the cookie goes when the link does
        left = (holder.expires_at - datetime.now(UTC)).total_seconds()
        max_age = max(1, min(max_age, int(left)))
    response = RedirectResponse(table.base, status_code=303)
    response.set_cookie(
        table.cookie,
        token,
        path=table.base,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        max_age=max_age,
    )
    return response
