"""``GET /join/TOKEN``: a join link checks the token and sets it as an HttpOnly, SameSite=Strict cookie."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from stkit.web.deps import TableDep
from stkit.web.table import COOKIE

router = APIRouter()


@router.get("/join/{token}")
def join(token: str, request: Request, table: TableDep) -> Response:
    table.holder_of(token)
    response = RedirectResponse("/", status_code=303)
    response.set_cookie(
        COOKIE,
        token,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        max_age=60 * 60 * 24 * 365,
    )
    return response
