"""The OpenAPI description of the hosted mosque profiles' operations (issue 27; served by runtime/hosted.py).

These operations write, so they are not `Endpoint`s (which are GET answers of a query, pre-rendered by
build.py); their paths are added to /v1/openapi.json beside the endpoints' (`PATHS`).  The request body
is a profile in the data/mosques format (`PROFILE`, docs/mosques.md), checked by generator.prayer.mosques and
the endpoints' own parse before anything is stored.
"""
from __future__ import annotations

from generator.prayer import mosques
from generator.api import schemas
from generator.words.locale import LANGUAGES

MAX_BODY_BYTES = 64 * 1024  # runtime/hosted.py refuses larger bodies with 413

_TEXT = {"type": "string", "minLength": 1}
_BY_LANG = {"type": "object", "properties": {lang: _TEXT for lang in LANGUAGES}, "additionalProperties": False}
_QUERY_VALUE = {"type": ["string", "number"]}
PROFILE = {
    "type": "object",
    "description": "A mosque profile in the data/mosques format (docs/mosques.md); unknown fields are refused",
    "required": list(mosques.REQUIRED),
    "properties": {
        "names": {**_BY_LANG, "required": ["en"]},
        "place": {"type": "object", "properties": {k: _QUERY_VALUE for k in ("city", "lat", "lng", "tz")},
                  "additionalProperties": False},
        "times": {"type": "object", "required": ["method"], "properties": {k: _QUERY_VALUE for k in mosques.TIMES_KEYS},
                  "additionalProperties": False},
        "jamaat": {"type": "object", "properties": {k: _QUERY_VALUE for k in mosques.JAMAAT_KEYS},
                   "additionalProperties": False},
        "reckoning": {"type": "string", "enum": list(mosques.RECKONINGS)},
        "languages": {"type": "array", "minItems": 1, "uniqueItems": True,
                      "items": {"type": "string", "enum": list(LANGUAGES)}},
        "announcements": {"type": "array", "maxItems": mosques.A.MAX_ITEMS, "items": {
            "type": "object", "required": ["text"], "additionalProperties": False, "properties": {
                "text": _BY_LANG, "kind": {"type": "string", "enum": list(mosques.A.KINDS)},
                "from": {"type": "string", "format": "date"}, "until": {"type": "string", "format": "date"},
                "weekdays": {"type": "array", "minItems": 1, "uniqueItems": True,
                             "items": {"type": "string", "enum": list(mosques.WEEKDAYS)}}}}},
        "announcement": {**_BY_LANG, "description": "The older one-line form of announcements (no dates): read as "
                                                    "one line; not beside announcements"},
        "screen": {"type": "object", "description": "Its wall screen's options (the screen's own parameters)",
                   "properties": {**{name: {"type": "integer", "minimum": low, "maximum": high}
                                     for name, (low, high) in {**mosques.SCREEN_MINUTES,
                                                               **mosques.SCREEN_SECONDS}.items()},
                                  "qr": {"type": "string", "enum": list(mosques.QR_TARGETS)}},
                   "additionalProperties": False},
        "website": {"type": "string", "pattern": "^https://"},
        "address": _TEXT,
        "sources": {"type": "array", "minItems": 1,
                    "items": schemas.obj(["about", "read"], {"about": _TEXT, "url": {"type": "string"},
                                                             "read": schemas.DATE}, additionalProperties=False)},
    },
    "additionalProperties": False,
}
_ID = {"name": "id", "in": "path", "required": True,
       "schema": {"type": "string", "maxLength": mosques.MAX_ID_CHARS, "pattern": f"^{mosques.ID.pattern}$"},
       "description": "The mosque's id (a hosted profile's, or a file profile's for reading)",
       "example": "jaffari-toronto"}
_VERSION_N = {"name": "n", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1},
              "description": "A version number of /v1/mosques/{id}/versions"}
_IF_MATCH = {"name": "If-Match", "in": "header", "required": True, "schema": {"type": "string"},
             "description": 'The version the edit starts from, as GET /v1/mosques/{id} gave it in ETag: "3"'}
_BODY = {"required": True, "content": {"application/json": {"schema": PROFILE}}}
_SECURED = [{"editSecret": []}]
_LINKS = {"type": "object", "additionalProperties": {"type": "string"}}
_ERROR = {"$ref": "#/components/schemas/Error"}
_CONFLICT = schemas.obj(["error", "version"], {"error": {"type": "string"}, "version": {"type": "integer"}})
SAVED = schemas.obj(["id", "version"], {"id": {"type": "string"}, "version": {"type": "integer"},
                                        "links": _LINKS, "deleted": {"type": "boolean"}})
_NEW_SECRET = schemas.obj(["id", "name", "edit"], {"id": {"type": "string"}, "name": {"type": "string"},
                                                   "edit": {"type": "string", "description": "The secret, shown once"}})
_ERRORS = {
    "400": "The profile (or a header) is refused; `error` names the field first, e.g. `jamaat.jamaat: …`",
    "401": "No Authorization header: give Authorization: Bearer <edit secret>",
    "403": "Not allowed (a wrong secret, or no such hosted profile: the two are not told apart; or a browser's write "
           "from another origin than this service's)",
    "404": "No such mosque or version",
    "409": "The profile moved on since the version given in If-Match; `version` is the current one",
    "413": f"A body larger than {MAX_BODY_BYTES} bytes",
    "415": "A body that is not application/json",
    "412": "A weak tag in If-Match (W/\"3\"): it never matches (RFC 9110 compares If-Match strongly)",
    "428": "No If-Match header",
    "429": "More creations or edits an hour than one client may make (an IPv6 client: its /64; Retry-After says "
           "when to retry)",
    "507": "A global cap is reached (profiles, or the database's size): nothing was saved; the service's operator "
           "raises it or prunes (docs/mosques.md)",
}


def _responses(ok: dict, *codes: str) -> dict:
    out = dict(ok)
    for code in codes:
        out[code] = schemas.json_response(_CONFLICT if code == "409" else _ERROR, _ERRORS[code])
    return out


_WRITE_ERRORS = ("400", "401", "403", "404", "409", "412", "413", "415", "428", "429", "507")
_LINK_NAME = {"name": "name", "in": "path", "required": True,
              "schema": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$"},
              "description": "An edit link's name (first: the link the profile was published with)"}
PATHS = {
    "/mosques": {"post": {
        "operationId": "publishMosque", "summary": "Publish a mosque profile: answers its id, version, edit secret (shown once) and addresses",
        "requestBody": _BODY,
        "responses": _responses({"201": schemas.json_response(schemas.obj(
            ["id", "version", "edit", "listed", "links"],
            {"id": {"type": "string"}, "version": {"type": "integer"}, "listed": {"type": "boolean"},
             "edit": {"type": "string", "description": "The edit secret: kept nowhere in clear, shown only here"},
             "links": _LINKS}), "Created (unlisted until a maintainer lists it)")},
            "400", "403", "404", "413", "415", "429", "507")}},
    "/mosques/{id}": {
        "get": {"operationId": "getMosque", "summary": "A mosque's profile (data/mosques format); ETag: its version", "parameters": [_ID],
                "responses": _responses({"200": schemas.json_response(PROFILE, "The profile")}, "404")},
        "put": {"operationId": "replaceMosque", "summary": "Replace a hosted profile with a new version (the old one is kept)",
                "parameters": [_ID, _IF_MATCH], "security": _SECURED, "requestBody": _BODY,
                "responses": _responses({"200": schemas.json_response(SAVED, "Saved: the new version")},
                                        *_WRITE_ERRORS)},
        "delete": {"operationId": "deleteMosque", "summary": "Delete a hosted profile (a version too: the edit secret can restore an older one)",
                   "parameters": [_ID, _IF_MATCH], "security": _SECURED,
                   "responses": _responses({"200": schemas.json_response(SAVED, "Deleted")},
                                           "400", "401", "403", "404", "409", "412", "428", "429")}},
    "/mosques/{id}/versions": {"get": {
        "operationId": "listMosqueVersions", "summary": "Every version of a hosted profile: number, when saved, whether a deletion",
        "parameters": [_ID], "security": _SECURED,
        "responses": _responses({"200": schemas.json_response(schemas.obj(["id", "versions"], {
            "id": {"type": "string"},
            "versions": {"type": "array", "items": schemas.obj(["version", "saved"], {
                "version": {"type": "integer"}, "saved": {"type": "string"}, "deleted": {"type": "boolean"}})}}))},
            "401", "403", "404", "429")}},
    "/mosques/{id}/versions/{n}": {"get": {
        "operationId": "getMosqueVersion", "summary": "One version of a hosted profile", "parameters": [_ID, _VERSION_N], "security": _SECURED,
        "responses": _responses({"200": schemas.json_response({"type": "object"}, "The profile of that version")},
                                "401", "403", "404", "429")}},
    "/mosques/{id}/versions/{n}/restore": {"post": {
        "operationId": "restoreMosqueVersion", "summary": "Make version n the current one (as a new version)", "parameters": [_ID, _VERSION_N, _IF_MATCH],
        "security": _SECURED,
        "responses": _responses({"200": schemas.json_response(SAVED, "Restored: the new version")},
                                "400", "401", "403", "404", "409", "412", "428", "429", "507")}},
    "/mosques/{id}/links": {
        "get": {"operationId": "listMosqueEditLinks", "summary": "The names of a hosted profile's edit links, and which one this secret is",
                "parameters": [_ID], "security": _SECURED,
                "responses": _responses({"200": schemas.json_response(schemas.obj(["id", "you", "links"], {
                    "id": {"type": "string"}, "you": {"type": "string"},
                    "links": {"type": "array", "items": schemas.obj(["name", "created"], {
                        "name": {"type": "string"}, "created": {"type": "string"}})}}))},
                    "401", "403", "404", "429")},
        "post": {"operationId": "addMosqueEditLink", "summary": "A new named edit link (a second committee member's): its secret, shown once",
                 "parameters": [_ID], "security": _SECURED,
                 "requestBody": {"required": True, "content": {"application/json": {"schema": schemas.obj(
                     ["name"], {"name": {"type": "string"}}, additionalProperties=False)}}},
                 "responses": _responses({"201": schemas.json_response(_NEW_SECRET, "The new link")},
                                         "400", "401", "403", "404", "409", "413", "415", "429")}},
    "/mosques/{id}/links/{name}": {"delete": {
        "operationId": "revokeMosqueEditLink",
        "summary": "Revoke an edit link (never the last one: 409)", "parameters": [_ID, _LINK_NAME],
        "security": _SECURED,
        "responses": _responses({"200": schemas.json_response(schemas.obj(["id", "revoked"], {
            "id": {"type": "string"}, "revoked": {"type": "string"}}), "Revoked")},
            "401", "403", "404", "409", "429")}},
    "/mosques/{id}/rotate": {"post": {
        "operationId": "rotateMosqueEditSecret",
        "summary": "A new secret for the edit link presented; the old secret opens nothing",
        "parameters": [_ID], "security": _SECURED,
        "responses": _responses({"200": schemas.json_response(_NEW_SECRET, "The link's new secret")},
                                "401", "403", "404", "429")}},
    "/mosques/{id}/salahapi.json": {"get": {
        "operationId": "getMosqueSalahApiJson", "summary": "The profile in the SalahAPI 1.0 format (what it cannot say: docs/mosques.md)",
        "parameters": [_ID],
        "responses": _responses({"200": schemas.json_response({"type": "object"}, "A SalahAPI 1.0 document")},
                                "404")}},
    "/mosques/{id}/salahapi.csv": {"get": {
        "operationId": "getMosqueSalahApiCsv", "summary": "The profile's daily adhan and jamaat times in SalahAPI's CSV columns",
        "parameters": [_ID] + [{"name": name, "in": "query", "required": False, "schema": {**schemas.DATE},
                                "description": f"{name} (YYYY-MM-DD); at most 366 days; default: this year"}
                               for name in ("fromDate", "toDate")],
        "responses": _responses({"200": {"description": "CSV", "content": {"text/csv": {"schema": {"type": "string"}}}}},
                                "400", "404")}},
}
SECURITY_SCHEMES = {"editSecret": {"type": "http", "scheme": "bearer",
                                   "description": "The edit secret POST /v1/mosques answered"}}
