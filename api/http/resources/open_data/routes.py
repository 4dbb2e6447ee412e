"""/api/v1/open-data: every finished public game, a gzipped JSON Lines file per game type and
month (`api.tables.open_data`; the format is docs/open-data.md's).

A file is made from the archive as it is sent, in bounded memory, and kept (gzipped, as sent)
under its ETag when it is small: a reader or a cache with the ETag is answered 304 from one
count in PostgreSQL. Both answers are `public`: a CDN in front may keep them.
"""
from __future__ import annotations

import threading
from typing import Iterator

from cachetools import LRUCache
from flask import Response, url_for
from flask.views import MethodView

from api.http.auth import tables
from api.http.conditional import answered, conditional, etag_of
from api.http.resources import tags
from api.http.resources.open_data.schemas import OpenDataSchema
from api.tables.open_data import FORMAT, OpenData, OpenMonth

blp = tags.open_data
GZIP = "application/gzip"
LISTING_MAX_AGE = 60
COMPLETE_MAX_AGE = 86400      # a month that is over changes only with a late archive
CURRENT_MAX_AGE = 3600
KEPT_BYTES = 64 * 1024 * 1024
KEPT_FILE_BYTES = 16 * 1024 * 1024
_kept: LRUCache[str, bytes] = LRUCache(KEPT_BYTES, getsizeof=len)
_kept_lock = threading.Lock()


@blp.route("/open-data")
class OpenDataFiles(MethodView):
    @blp.doc(operationId="listOpenData")
    @conditional
    @blp.response(200, OpenDataSchema)
    def get(self):
        """Every open data file: each game type's public games of each month

        The list is at most a minute old. See docs/open-data.md for what a file holds."""
        listed = {"format": FORMAT, "files": [
            {"type": found.type, "month": found.month, "games": found.games,
             "complete": found.complete, "file_name": found.file_name,
             "url": url_for("opendata.OpenDataFile", type_name=found.type, month=found.month)}
            for found in tables().open_data.months()]}
        response = answered(etag_of(listed), lambda: Response(
            OpenDataSchema().dumps(listed, separators=(",", ":")) + "\n",
            mimetype="application/json"))
        response.headers["Cache-Control"] = f"public, max-age={LISTING_MAX_AGE}"
        return response


@blp.route("/open-data/<string:type_name>/<string:month>")
class OpenDataFile(MethodView):
    @blp.doc(operationId="getOpenDataFile")
    @conditional
    @blp.response(200, {"type": "string", "format": "binary",
                        "description": "gzip of JSON Lines: one finished game a line"},
                  content_type=GZIP)
    def get(self, type_name, month):
        """One open data file: a game type's public games that finished in a month (YYYY-MM)

        Gzipped JSON Lines, one game a line in the order they finished, with everything needed
        to replay it by the rules pages (docs/open-data.md). It carries a strong ETag: send it
        back as If-None-Match, 304 until the file changed."""
        open_data = tables().open_data
        opened = open_data.month(type_name, month)  # 404 before anything is sent
        etag = etag_of(opened.etag_parts())
        response = answered(etag, lambda: _file_response(open_data, opened, etag))
        response.headers["Cache-Control"] = (
            f"public, max-age={COMPLETE_MAX_AGE if opened.complete else CURRENT_MAX_AGE}")
        response.headers["Content-Disposition"] = f'attachment; filename="{opened.file_name}"'
        return response


def _file_response(open_data: OpenData, opened: OpenMonth, etag: str) -> Response:
    with _kept_lock:
        kept = _kept.get(etag)
    if kept is not None:
        return Response(kept, mimetype=GZIP)
    return Response(_sent_and_kept(open_data, opened, etag), mimetype=GZIP)


def _sent_and_kept(open_data: OpenData, opened: OpenMonth, etag: str) -> Iterator[bytes]:
    """The file as it is made; kept once whole if it is small."""
    chunks, size = [], 0
    for chunk in open_data.file(opened):
        size += len(chunk)
        if size <= KEPT_FILE_BYTES:
            chunks.append(chunk)
        yield chunk
    if size <= KEPT_FILE_BYTES:
        with _kept_lock:
            _kept[etag] = b"".join(chunks)
