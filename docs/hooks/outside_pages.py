"""MkDocs hook: the pages that live outside docs/ join the site at their place in the repository.

The rules pages (seeds/) and the measurement history (bench/RESULTS.md) stay beside what they
describe. Pages in docs/ link to them by their path from docs/ (`../seeds/sixnimmt.md`), so a
link reads the same in a checkout as in the site; here each one becomes a page whose source is
that path and whose address drops the leading `../` (`seeds/sixnimmt/`). `mkdocs build
--strict` then checks those links like any other.
"""
from __future__ import annotations

from pathlib import Path

from mkdocs.structure.files import File, Files, InclusionLevel

OUTSIDE_PAGES = ("seeds/*.md", "bench/RESULTS.md")


def on_files(files: Files, config) -> Files:
    root = Path(config.docs_dir).parent
    for pattern in OUTSIDE_PAGES:
        for path in sorted(root.glob(pattern)):
            page = File(f"../{path.relative_to(root).as_posix()}", config.docs_dir,
                        config.site_dir, config.use_directory_urls,
                        inclusion=InclusionLevel.INCLUDED)
            page.dest_uri = page.dest_uri.removeprefix("../")
            files.append(page)
    return files
