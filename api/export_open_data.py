"""`python -m api.export_open_data FOLDER [--type TYPE] [--month YYYY-MM]`: the open data
files ([Open data](docs/open-data.md)) written into FOLDER, one gzipped JSON Lines file per game
type and month, `FOLDER/<type>/poyta-<type>-<month>.jsonl.gz`, with `FOLDER/index.json` listing
them. Run it again (daily, say): a file is written again only when its games changed, and each
file is written whole under another name, then renamed, so a mirror serving FOLDER never sends
half a file. DATABASE_URL names the archive the files are read from, REDIS_URL the game store.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from api.settings import Settings
from api.storage import connections
from api.tables import Tables
from api.tables.errors import ServiceError
from api.tables.open_data import OpenMonth

INDEX = "index.json"


def export(tables: Tables, folder: Path, type_name: str | None = None,
           month: str | None = None) -> list[OpenMonth]:
    """The files written (those whose games changed since FOLDER's index was written)."""
    folder.mkdir(parents=True, exist_ok=True)
    index_path = folder / INDEX
    index = json.loads(index_path.read_text()) if index_path.exists() else {"files": []}
    written_before = {(entry["type"], entry["month"]): entry for entry in index["files"]}
    wanted = [(listed.type, listed.month) for listed in tables.open_data.months()
              if type_name in (None, listed.type) and month in (None, listed.month)]
    if type_name and month and (type_name, month) not in wanted:
        wanted.append((type_name, month))  # the listing is cached: ask for this one now
    written = []
    for wanted_type, wanted_month in wanted:
        opened = tables.open_data.month(wanted_type, wanted_month)
        path = folder / opened.type / opened.file_name
        entry = {"type": opened.type, "month": opened.month, "games": opened.games,
                 "complete": opened.complete, "file": f"{opened.type}/{opened.file_name}",
                 "version": opened.etag_parts()}
        if written_before.get((opened.type, opened.month)) == entry and path.exists():
            continue
        path.parent.mkdir(exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        with partial.open("wb") as out:
            for chunk in tables.open_data.file(opened):
                out.write(chunk)
        partial.replace(path)
        written_before[(opened.type, opened.month)] = entry
        written.append(opened)
    index["files"] = [written_before[key] for key in sorted(written_before)]
    partial = index_path.with_name(INDEX + ".partial")
    partial.write_text(json.dumps(index, indent=1) + "\n")
    partial.replace(index_path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--type", help="one game type only")
    parser.add_argument("--month", help="one month only (YYYY-MM)")
    options = parser.parse_args(argv)
    settings = Settings.from_env()
    if not settings.database_url:
        print("DATABASE_URL names no archive to export from", file=sys.stderr)
        return 1
    tables = Tables(connections.store_client(settings.connections), settings=settings)
    try:
        written = export(tables, options.folder, options.type, options.month)
    except ServiceError as refused:
        print(refused, file=sys.stderr)
        return 1
    for opened in written:
        print(f"{opened.type}/{opened.file_name}: {opened.games} games"
              f"{'' if opened.complete else ' (month not over)'}")
    print(f"Pöytä: {len(written)} open data file(s) written to {options.folder}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
