// A tiny, safe Markdown-to-DOM renderer for the rules pages. Text only ever becomes text
// nodes (never innerHTML). Supports headings, paragraphs, lists (nested by indent),
// **bold**, *italics*, `code`, [links](url), > quotes, --- rules, ``` code blocks and simple tables.

function el(tag, ...children) {
  const node = document.createElement(tag);
  for (const child of children) node.append(child);
  return node;
}

const INLINE = /(\*\*|__)(.+?)\1|(\*|_)(?!\s)(.+?)\3(?![\w*])|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)/;

export function inline(text) {
  const frag = document.createDocumentFragment();
  let rest = text;
  while (rest) {
    const m = INLINE.exec(rest);
    if (!m) { frag.append(rest); break; }
    if (m.index) frag.append(rest.slice(0, m.index));
    if (m[2] !== undefined) frag.append(el("strong", inline(m[2])));
    else if (m[4] !== undefined) frag.append(el("em", inline(m[4])));
    else if (m[5] !== undefined) frag.append(el("code", m[5]));
    else {
      const href = m[7];
      // Only web links and in-page/relative links; never javascript: and friends.
      if (/^(https?:\/\/|#|\/(?!\/)|\.{0,2}\/)/i.test(href) || /^[\w.-]+(#[\w-]*)?$/.test(href)) {
        const a = el("a", inline(m[6]));
        a.href = href;
        if (/^https?:/i.test(href)) a.rel = "noopener noreferrer";
        frag.append(a);
      } else frag.append(inline(m[6]));
    }
    rest = rest.slice(m.index + m[0].length);
  }
  return frag;
}

const splitRow = (line) => line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
const isTableSep = (line) => /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(line);
const LIST = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;

// `offset` shifts heading levels ("#" -> h1+offset); headings never go above h2 (the page has the h1).
export function renderMarkdown(source, offset = 1) {
  const root = document.createElement("div");
  root.className = "markdown";
  const lines = String(source || "").replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i++; continue; }
    let m;
    if (/^```/.test(line)) {
      const code = [];
      i++;
      while (i < lines.length && !/^```/.test(lines[i])) code.push(lines[i++]);
      i++;
      root.append(el("pre", el("code", code.join("\n"))));
    } else if ((m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line))) {
      const level = Math.max(2, Math.min(6, m[1].length + offset));
      root.append(el(`h${level}`, inline(m[2])));
      i++;
    } else if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      root.append(document.createElement("hr"));
      i++;
    } else if (line.includes("|") && i + 1 < lines.length && isTableSep(lines[i + 1])) {
      const table = document.createElement("table");
      const head = el("tr");
      for (const cell of splitRow(line)) { const th = el("th", inline(cell)); th.scope = "col"; head.append(th); }
      table.append(el("thead", head));
      const body = document.createElement("tbody");
      i += 2;
      while (i < lines.length && lines[i].includes("|") && lines[i].trim()) {
        const tr = el("tr");
        for (const cell of splitRow(lines[i])) tr.append(el("td", inline(cell)));
        body.append(tr);
        i++;
      }
      table.append(body);
      const wrap = el("div", table);
      wrap.className = "table-wrap";
      root.append(wrap);
    } else if (/^\s*>/.test(line)) {
      const quote = [];
      while (i < lines.length && /^\s*>/.test(lines[i])) quote.push(lines[i++].replace(/^\s*>\s?/, ""));
      const bq = el("blockquote");
      bq.append(...renderMarkdown(quote.join("\n"), offset).childNodes);
      root.append(bq);
    } else if (LIST.test(line)) {
      i = parseList(lines, i, root);
    } else {
      const para = [];
      while (i < lines.length && lines[i].trim() && !LIST.test(lines[i]) && !/^(#{1,6}\s|```|\s*>)/.test(lines[i])
             && !(lines[i].includes("|") && i + 1 < lines.length && isTableSep(lines[i + 1]))) {
        para.push(lines[i++].trim());
      }
      root.append(el("p", inline(para.join(" "))));
    }
  }
  return root;
}

function parseList(lines, i, parent) {
  const first = LIST.exec(lines[i]);
  const indent = first[1].length;
  const ordered = /\d/.test(first[2]);
  const list = document.createElement(ordered ? "ol" : "ul");
  const sameKind = (m) => /\d/.test(m[2]) === ordered;
  let item = null;
  let texts = [];
  // An item's text may wrap over several lines (and hold `code` that wraps too): render it whole.
  const flush = () => { if (item && texts.length) item.prepend(inline(texts.join(" "))); texts = []; };
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      // A blank line ends the list unless the list continues right after it.
      const next = lines[i + 1];
      const nm = next && LIST.exec(next);
      if (nm && (nm[1].length > indent || (nm[1].length === indent && sameKind(nm)))) { i++; continue; }
      break;
    }
    const m = LIST.exec(line);
    if (m && m[1].length === indent && !sameKind(m)) break;
    if (m && m[1].length === indent) {
      flush();
      item = document.createElement("li");
      texts = [m[3]];
      list.append(item);
      i++;
    } else if (m && m[1].length > indent && item) {
      flush();
      i = parseList(lines, i, item);
    } else if (m && m[1].length < indent) {
      break;
    } else if (item && /^\s+\S/.test(line)) {
      texts.push(line.trim());
      i++;
    } else break;
  }
  flush();
  parent.append(list);
  return i;
}
