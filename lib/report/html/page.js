// runlens report page script: the example browser. Plain JavaScript, no dependencies, no
// network. Data is read from two JSON script blocks: #report-index (all
// but the texts; enough to draw the list) and #report-texts (question texts and responses,
// JSON or gzip+base64, read after the first render). Data only ever enters the page as text
// (textContent / text nodes), never as HTML.
(() => {
  "use strict";
  performance.mark("report-script-start");
  const $ = (id) => document.getElementById(id);
  const fmt = (n) => n.toLocaleString("en-US");

  /** A new element with a class and text content. */
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  function decodeBase64(text) {
    if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(text);
    const bin = atob(text);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  async function loadTexts(node) {
    if (!node) throw new Error("no #report-texts block");
    const text = node.textContent;
    if (node.dataset.encoding === "gzip-base64") {
      const stream = new Blob([decodeBase64(text)]).stream()
        .pipeThrough(new DecompressionStream("gzip"));
      return JSON.parse(await new Response(stream).text());
    }
    return JSON.parse(text);
  }

  function shorten(s, max) {
    return s.length > max ? s.slice(0, max - 1) + "…" : s;
  }

  /** Put `text` into `node` as text nodes, with case-insensitive matches of `query` marked. */
  function setHighlighted(node, text, query) {
    node.textContent = "";
    if (!query) {
      node.textContent = text;
      return 0;
    }
    const lc = text.toLowerCase();
    if (lc.length !== text.length) {
      node.textContent = text; // case mapping changed offsets: no marks rather than wrong ones
      return 0;
    }
    let at = 0, marks = 0;
    const frag = document.createDocumentFragment();
    for (let i = lc.indexOf(query); i !== -1 && marks < 500; i = lc.indexOf(query, at)) {
      if (i > at) frag.append(document.createTextNode(text.slice(at, i)));
      frag.append(el("mark", null, text.slice(i, i + query.length)));
      at = i + query.length;
      marks++;
    }
    if (at < text.length) frag.append(document.createTextNode(text.slice(at)));
    node.append(frag);
    return marks;
  }

  function start(P) {
    const n = P.run.length;
    const nq = P.q_task.length;
    let texts = null; // {q_text, response} once read
    const waiting = []; // callbacks to run when the texts are there
    let searchPending = false;
    const multiBench = P.benchmarks.length > 1;
    const multiEpoch = P.epoch.some((e) => e !== 0);
    const taskLabel = (t) =>
      multiBench ? `${P.benchmarks[P.tasks[t][0]]} · ${P.tasks[t][1]}` : P.tasks[t][1];

    const ui = {
      form: $("ex-filters"),
      run: $("ex-run"),
      task: $("ex-task"),
      subset: $("ex-subset"),
      verdict: $("ex-verdict"),
      failure: $("ex-failure"),
      disagree: $("ex-disagree"),
      search: $("ex-search"),
      count: $("ex-count"),
      list: $("ex-list"),
      size: $("ex-size"),
      pagers: [...document.querySelectorAll(".ex-pager")],
    };

    // Filter options, with the number of rows of each value.
    const counts = (col, k) => {
      const c = new Map();
      for (let i = 0; i < n; i++) {
        const v = k ? k(i) : col[i];
        c.set(v, (c.get(v) ?? 0) + 1);
      }
      return c;
    };
    const addOptions = (select, entries) => {
      for (const [value, label, count] of entries) {
        if (!count) continue;
        const o = el("option", null, `${label} (${fmt(count)})`);
        o.value = String(value);
        select.append(o);
      }
    };
    const runCounts = counts(P.run);
    addOptions(ui.run, P.runs.map((r, i) => [i, r, runCounts.get(i)]));
    const taskCounts = counts(null, (i) => P.q_task[P.q[i]]);
    addOptions(ui.task, P.tasks.map((_, t) => [t, taskLabel(t), taskCounts.get(t)]));
    const subsetCounts = counts(P.subset);
    addOptions(ui.subset, [
      [-1, "(no subset)", subsetCounts.get(-1)],
      ...P.subsets.map((s, i) => [i, s, subsetCounts.get(i)]),
    ]);
    const verdictCounts = counts(P.correct);
    addOptions(ui.verdict, [[1, "correct", verdictCounts.get(1)], [
      0,
      "wrong",
      verdictCounts.get(0),
    ]]);
    const failureCounts = counts(P.failure);
    addOptions(ui.failure, [
      [-1, "(none)", failureCounts.get(-1)],
      ...P.failures.map((f, i) => [i, f, failureCounts.get(i)]),
    ]);
    const disCounts = counts(P.disagree);
    addOptions(ui.disagree, [
      [1, "scorers disagree", disCounts.get(1)],
      [0, "scorers agree", disCounts.get(0)],
      [-1, "not checked", disCounts.get(-1)],
    ]);

    // Lower-cased texts for case-insensitive search, made on first use.
    let lcResponse = null, lcQuestion = null, lcTarget = null;
    const lower = (a) => a.map((s) => (s === null ? null : s.toLowerCase()));

    let matches = new Int32Array(0);
    let page = 0;
    let query = "";
    let lastState = null;

    function selected(select) {
      return select.value === "" ? null : Number(select.value);
    }

    function applyFilters() {
      const fRun = selected(ui.run), fTask = selected(ui.task), fSubset = selected(ui.subset);
      const fVerdict = selected(ui.verdict), fFailure = selected(ui.failure);
      const fDis = selected(ui.disagree);
      query = ui.search.value.trim();
      // A query without cased letters is matched on the texts as they are (no lower-casing).
      const cased = query.toLowerCase() !== query.toUpperCase();
      query = query.toLowerCase();
      // Nothing changed (e.g. a late debounced search event): keep the page the reader is on.
      const state = JSON.stringify([fRun, fTask, fSubset, fVerdict, fFailure, fDis, query]);
      if (state === lastState && !searchPending) return;
      if (query && !texts) {
        searchPending = true;
        ui.count.textContent = "Searching… (reading the texts)";
        return;
      }
      searchPending = false;
      let qHit = null, resp = texts ? texts.response : null, targ = P.targets;
      if (query) {
        const qs = cased ? (lcQuestion ??= lower(texts.q_text)) : texts.q_text;
        qHit = new Uint8Array(nq);
        for (let j = 0; j < nq; j++) qHit[j] = qs[j].includes(query) ? 1 : 0;
        if (cased) {
          resp = lcResponse ??= lower(texts.response);
          targ = lcTarget ??= lower(P.targets);
        }
      }
      const out = new Int32Array(n);
      let m = 0;
      for (let i = 0; i < n; i++) {
        if (fRun !== null && P.run[i] !== fRun) continue;
        if (fTask !== null && P.q_task[P.q[i]] !== fTask) continue;
        if (fSubset !== null && P.subset[i] !== fSubset) continue;
        if (fVerdict !== null && P.correct[i] !== fVerdict) continue;
        if (fFailure !== null && P.failure[i] !== fFailure) continue;
        if (fDis !== null && P.disagree[i] !== fDis) continue;
        if (qHit !== null && !qHit[P.q[i]]) {
          const x = P.extracted[i];
          if (
            !resp[i].includes(query) && !targ[P.target[i]].includes(query) &&
            !(x !== null && (cased ? x.toLowerCase() : x).includes(query))
          ) continue;
        }
        out[m++] = i;
      }
      matches = out.subarray(0, m);
      lastState = state;
      page = 0;
      render();
    }

    function field(title, text, note, mono) {
      const box = el("div", "ex-field");
      const h = el("h4", null, title);
      if (note) h.append(" ", el("span", null, note));
      const pre = el("pre", mono ? "mono" : null);
      const marks = setHighlighted(pre, text, query);
      box.append(h, pre);
      return { box, pre, marks };
    }

    function fill(details, i) {
      details.dataset.filled = "true";
      if (!texts) {
        const wait = el("div", "ex-body ex-wait", "Reading the texts…");
        details.append(wait);
        waiting.push(() => {
          wait.remove();
          fillNow(details, i);
        });
        return;
      }
      fillNow(details, i);
    }

    function fillNow(details, i) {
      const body = el("div", "ex-body");
      const qt = texts.q_text[P.q[i]], rt = texts.response[i];
      const q = field("Question", qt, `(${fmt(qt.length)} characters)`);
      const r = field("Response", rt, `(${fmt(rt.length)} characters)`);
      r.pre.className = "ex-response";
      const x = P.extracted[i];
      const xf = field("Extracted answer", x === null ? "(none: the scorer found no answer)" : x);
      xf.pre.className = "ex-extracted";
      const t = field("Target", P.targets[P.target[i]]);
      t.pre.className = "ex-target";
      q.pre.className = "ex-question";
      body.append(q.box, r.box, xf.box, t.box);
      details.append(body);
      const first = r.pre.querySelector("mark");
      if (first) r.pre.scrollTop = Math.max(0, first.offsetTop - r.pre.offsetTop - 40);
    }

    function rowItem(i, pos) {
      const li = el("li");
      const d = el("details", "ex-row");
      d.dataset.row = String(i);
      const s = el("summary");
      s.append(el("span", "num", `${fmt(pos)}.`));
      s.append(el("span", P.correct[i] ? "tag ok" : "tag bad", P.correct[i] ? "correct" : "wrong"));
      s.append(el("span", "ex-run", P.runs[P.run[i]]));
      const q = P.q[i];
      let where = `${taskLabel(P.q_task[q])} #${P.q_index[q]}`;
      if (multiEpoch) where += ` · epoch ${P.epoch[i]}`;
      s.append(el("span", "ex-task", where));
      if (P.subset[i] !== -1) s.append(el("span", "tag", P.subsets[P.subset[i]]));
      const ans = el("span", "ex-answer");
      const x = P.extracted[i];
      ans.append("answer ", el("code", null, x === null ? "(none)" : shorten(x, 60)));
      ans.append(" · target ", el("code", null, shorten(P.targets[P.target[i]], 60)));
      s.append(ans);
      if (P.failure[i] !== -1) s.append(el("span", "tag", P.failures[P.failure[i]]));
      if (P.disagree[i] === 1) s.append(el("span", "tag flag", "scorers disagree"));
      d.append(s);
      d.addEventListener("toggle", () => {
        if (d.open && !d.dataset.filled) fill(d, i);
      });
      li.append(d);
      return li;
    }

    function render() {
      const size = Number(ui.size.value) || 50;
      const pages = Math.max(1, Math.ceil(matches.length / size));
      if (page >= pages) page = pages - 1;
      const from = page * size, to = Math.min(matches.length, from + size);
      ui.count.textContent = `${fmt(matches.length)} of ${fmt(n)} rows`;
      const items = [];
      for (let k = from; k < to; k++) items.push(rowItem(matches[k], k + 1));
      ui.list.start = from + 1;
      ui.list.replaceChildren(...items);
      if (items.length === 0) ui.list.append(el("li", "ex-empty", "No row matches these filters."));
      for (const p of ui.pagers) {
        p.querySelector(".ex-prev").disabled = page === 0;
        p.querySelector(".ex-next").disabled = page >= pages - 1;
        p.querySelector(".ex-page").textContent = `Page ${fmt(page + 1)} of ${fmt(pages)}`;
      }
    }

    let timer = 0;
    ui.search.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(applyFilters, 200);
    });
    ui.form.addEventListener("submit", (e) => {
      e.preventDefault();
      clearTimeout(timer);
      applyFilters();
    });
    ui.form.addEventListener("reset", () => setTimeout(applyFilters, 0));
    for (const s of [ui.run, ui.task, ui.subset, ui.verdict, ui.failure, ui.disagree]) {
      s.addEventListener("change", applyFilters);
    }
    ui.size.addEventListener("change", () => {
      page = 0;
      render();
    });
    for (const p of ui.pagers) {
      p.querySelector(".ex-prev").addEventListener("click", () => {
        page = Math.max(0, page - 1);
        render();
      });
      p.querySelector(".ex-next").addEventListener("click", () => {
        page++;
        render();
      });
    }
    document.addEventListener("keydown", (e) => {
      const t = e.target;
      const typing = t instanceof HTMLInputElement || t instanceof HTMLSelectElement ||
        t instanceof HTMLTextAreaElement;
      if (e.key === "/" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        ui.search.focus();
      } else if (e.key === "Escape" && t === ui.search && ui.search.value) {
        clearTimeout(timer);
        ui.search.value = "";
        applyFilters();
      }
    });
    applyFilters();

    return {
      textsRead(t) {
        texts = t;
        for (const f of waiting.splice(0)) f();
        if (searchPending) applyFilters();
      },
      textsFailed(e) {
        ui.count.textContent = `The texts could not be read: ${e}`;
        waiting.length = 0;
      },
    };
  }

  function fail(e) {
    const box = $("ex-list");
    if (box) box.replaceChildren(el("li", "ex-empty", `The example data could not be read: ${e}`));
    console.error("runlens report: example data could not be read", e);
    document.documentElement.dataset.ready = "error";
  }

  // Per-pair task tables and long tables wait in a <template> (no DOM nodes, no layout) until
  // their <details> is first opened: with 20 runs there are 190 pairs.
  for (const d of document.querySelectorAll("details.lazy")) {
    d.addEventListener("toggle", () => {
      const tpl = d.querySelector(":scope > template");
      if (d.open && tpl) tpl.replaceWith(tpl.content);
    });
  }

  const indexNode = $("report-index");
  if (!indexNode) {
    performance.mark("report-ready");
    document.documentElement.dataset.ready = "true";
    return;
  }
  let browser;
  try {
    browser = start(JSON.parse(indexNode.textContent));
  } catch (e) {
    fail(e);
    return;
  }
  // First render done: the list, filters and pager work. The texts follow.
  performance.mark("report-ready");
  document.documentElement.dataset.ready = "true";
  setTimeout(() => {
    loadTexts($("report-texts")).then((t) => {
      browser.textsRead(t);
      performance.mark("report-texts-ready");
      document.documentElement.dataset.texts = "ready";
    }, (e) => {
      browser.textsFailed(e);
      fail(e);
      document.documentElement.dataset.texts = "error";
    });
  }, 0);
})();
