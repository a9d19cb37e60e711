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

  /**
   * Each row's group (its run and question: the epochs of one run on one example), and per
   * group its rows (in epoch order) and how many of them are right.
   */
  function epochGroups(P, n, nq) {
    const index = new Map();
    const rows = [];
    const rowGroup = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const k = P.run[i] * nq + P.q[i];
      let g = index.get(k);
      if (g === undefined) {
        g = rows.length;
        index.set(k, g);
        rows.push([]);
      }
      rows[g].push(i);
      rowGroup[i] = g;
    }
    const right = new Int32Array(rows.length);
    for (let g = 0; g < rows.length; g++) {
      rows[g].sort((a, b) => P.epoch[a] - P.epoch[b]);
      for (const i of rows[g]) right[g] += P.correct[i];
    }
    // unstable: several epochs that do not all agree
    const unstable = (g) => rows[g].length > 1 && right[g] > 0 && right[g] < rows[g].length;
    return { index, rows, rowGroup, right, unstable };
  }

  function start(P) {
    const n = P.run.length;
    const nq = P.q_task.length;
    let texts = null; // {q_text, response} once read
    const waiting = []; // callbacks to run when the texts are there
    let searchPending = false;
    const multiBench = P.benchmarks.length > 1;
    const G = epochGroups(P, n, nq);
    const multiEpoch = G.rows.some((r) => r.length > 1);
    const taskLabel = (t) =>
      multiBench ? `${P.benchmarks[P.tasks[t][0]]} · ${P.tasks[t][1]}` : P.tasks[t][1];

    const ui = {
      form: $("ex-filters"),
      modes: [...document.querySelectorAll("input[name=ex-mode]")],
      run: $("ex-run"),
      runA: $("ex-run-a"),
      runB: $("ex-run-b"),
      pair: $("ex-pair"),
      task: $("ex-task"),
      subset: $("ex-subset"),
      verdict: $("ex-verdict"),
      failure: $("ex-failure"),
      disagree: $("ex-disagree"),
      stability: $("ex-stability"),
      search: $("ex-search"),
      count: $("ex-count"),
      list: $("ex-list"),
      size: $("ex-size"),
      pagers: [...document.querySelectorAll(".ex-pager")],
    };
    let mode = "rows";

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
    addOptions(ui.run, P.run_labels.map((r, i) => [i, r, runCounts.get(i)]));
    const taskCounts = counts(null, (i) => P.q_task[P.q[i]]);
    addOptions(ui.task, P.tasks.map((_, t) => [t, taskLabel(t), taskCounts.get(t)]));
    const subsetCounts = counts(P.subset);
    addOptions(ui.subset, [
      [-1, "(no subset)", subsetCounts.get(-1)],
      ...P.subsets.map((s, i) => [i, s, subsetCounts.get(i)]),
    ]);
    // 1 right, 0 wrong (either kind), 2 wrong with an answer found, 3 no answer found
    const outcome = (i) => P.correct[i] ? 1 : P.found[i] === 0 ? 3 : P.found[i] === 1 ? 2 : 0;
    const verdictCounts = counts(null, outcome);
    const wrongCount = n - (verdictCounts.get(1) ?? 0);
    addOptions(ui.verdict, [
      [1, "right", verdictCounts.get(1)],
      [0, "wrong", wrongCount],
      [2, "\u2003wrong answer", verdictCounts.get(2)],
      [3, "\u2003no answer found", verdictCounts.get(3)],
    ]);
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
    const stabCounts = counts(null, (i) => G.unstable(G.rowGroup[i]) ? 1 : 0);
    addOptions(ui.stability, [
      [1, "verdict flips across epochs", stabCounts.get(1)],
      [0, "same verdict in every epoch", stabCounts.get(0)],
    ]);
    ui.form.dataset.epochs = multiEpoch ? "several" : "one";
    for (const s of [ui.runA, ui.runB]) {
      addOptions(s, P.run_labels.map((r, i) => [i, r, runCounts.get(i)]));
    }
    if (P.runs.length >= 2) {
      ui.runA.value = "0";
      ui.runB.value = "1";
    } else {
      document.getElementById("ex-modes").hidden = true;
    }

    // Lower-cased texts for case-insensitive search, made on first use.
    let lcResponse = null, lcQuestion = null, lcTarget = null;
    const lower = (a) => a.map((s) => (s === null ? null : s.toLowerCase()));

    let matches = new Int32Array(0);
    let total = n;
    let page = 0;
    let query = "";
    let lastState = null;

    function selected(select) {
      return select.value === "" ? null : Number(select.value);
    }

    /** The search's matchers: of questions, and of rows (response, extracted, target). */
    function searchers(cased) {
      if (!query) return null;
      const qs = cased ? (lcQuestion ??= lower(texts.q_text)) : texts.q_text;
      const resp = cased ? (lcResponse ??= lower(texts.response)) : texts.response;
      const targ = cased ? (lcTarget ??= lower(P.targets)) : P.targets;
      const qHit = new Uint8Array(nq);
      for (let j = 0; j < nq; j++) qHit[j] = qs[j].includes(query) ? 1 : 0;
      const rowHit = (i) => {
        const x = P.extracted[i];
        return resp[i].includes(query) || targ[P.target[i]].includes(query) ||
          (x !== null && (cased ? x.toLowerCase() : x).includes(query));
      };
      return { qHit, rowHit };
    }

    function applyFilters() {
      const f = {
        mode,
        run: selected(ui.run),
        a: selected(ui.runA),
        b: selected(ui.runB),
        pair: ui.pair.value,
        task: selected(ui.task),
        subset: selected(ui.subset),
        verdict: selected(ui.verdict),
        failure: selected(ui.failure),
        dis: selected(ui.disagree),
        stab: selected(ui.stability),
      };
      query = ui.search.value.trim();
      // A query without cased letters is matched on the texts as they are (no lower-casing).
      const cased = query.toLowerCase() !== query.toUpperCase();
      query = query.toLowerCase();
      // Nothing changed (e.g. a late debounced search event): keep the page the reader is on.
      const state = JSON.stringify([f, query]);
      if (state === lastState && !searchPending) return;
      if (query && !texts) {
        searchPending = true;
        ui.count.textContent = "Searching… (reading the texts)";
        return;
      }
      searchPending = false;
      const search = searchers(cased);
      matches = mode === "pairs" ? pairMatches(f, search) : rowMatches(f, search);
      lastState = state;
      page = 0;
      render();
    }

    function rowMatches(f, search) {
      const out = new Int32Array(n);
      let m = 0;
      for (let i = 0; i < n; i++) {
        if (f.run !== null && P.run[i] !== f.run) continue;
        if (f.task !== null && P.q_task[P.q[i]] !== f.task) continue;
        if (f.subset !== null && P.subset[i] !== f.subset) continue;
        if (f.verdict !== null) {
          const o = outcome(i);
          if (f.verdict === 0 ? o === 1 : o !== f.verdict) continue;
        }
        if (f.failure !== null && P.failure[i] !== f.failure) continue;
        if (f.dis !== null && P.disagree[i] !== f.dis) continue;
        if (f.stab !== null && (G.unstable(G.rowGroup[i]) ? 1 : 0) !== f.stab) continue;
        if (search !== null && !search.qHit[P.q[i]] && !search.rowHit(i)) continue;
        out[m++] = i;
      }
      total = n;
      return out.subarray(0, m);
    }

    /** A run's share of right epochs on a question, or -1 when it has no row of it. */
    function share(run, q) {
      const g = G.index.get(run * nq + q);
      return g === undefined ? -1 : G.right[g] / G.rows[g].length;
    }

    /** Which way a pair goes: "a" A better, "b" B better, "rr" both right, "ww" both wrong. */
    function pairKind(sa, sb) {
      if (sa > sb) return "a";
      if (sb > sa) return "b";
      return sa === 1 ? "rr" : sa === 0 ? "ww" : "tie";
    }

    /** The questions both runs answered, each as its first row (for task and subset). */
    function pairQuestions(a, b) {
      const out = [];
      for (let g = 0; g < G.rows.length; g++) {
        const i = G.rows[g][0];
        if (P.run[i] === a && G.index.has(b * nq + P.q[i])) out.push(i);
      }
      return out;
    }

    function pairOptions(a, b) {
      const keep = ui.pair.value;
      const c = new Map();
      for (const i of pairQuestions(a, b)) {
        const k = pairKind(share(a, P.q[i]), share(b, P.q[i]));
        c.set(k, (c.get(k) ?? 0) + 1);
      }
      const more = multiEpoch ? " (more epochs right)" : "";
      ui.pair.replaceChildren(el("option", null, "All examples both runs answered"));
      ui.pair.options[0].value = "";
      addOptions(ui.pair, [
        ["d", "discordant (either way)", (c.get("a") ?? 0) + (c.get("b") ?? 0)],
        ["a", `A right, B wrong${more}`, c.get("a")],
        ["b", `A wrong, B right${more}`, c.get("b")],
        ["rr", "both right", c.get("rr")],
        ["ww", "both wrong", c.get("ww")],
      ]);
      ui.pair.value = [...ui.pair.options].some((o) => o.value === keep) ? keep : "";
    }

    function pairMatches(f, search) {
      const firsts = f.a === null || f.b === null ? [] : pairQuestions(f.a, f.b);
      const out = new Int32Array(firsts.length);
      let m = 0;
      for (const i of firsts) {
        const q = P.q[i];
        if (f.task !== null && P.q_task[q] !== f.task) continue;
        if (f.subset !== null && P.subset[i] !== f.subset) continue;
        const k = pairKind(share(f.a, q), share(f.b, q));
        if (f.pair === "d" ? k !== "a" && k !== "b" : f.pair !== "" && k !== f.pair) continue;
        const ga = G.index.get(f.a * nq + q), gb = G.index.get(f.b * nq + q);
        if (f.stab !== null && ((G.unstable(ga) || G.unstable(gb)) ? 1 : 0) !== f.stab) continue;
        if (
          search !== null && !search.qHit[q] &&
          !G.rows[ga].some(search.rowHit) && !G.rows[gb].some(search.rowHit)
        ) continue;
        out[m++] = i;
      }
      total = firsts.length;
      return out.subarray(0, m);
    }

    function field(title, text, note, cls) {
      const box = el("div", "ex-field");
      const h = el("h4", null, title);
      if (note) h.append(" ", el("span", null, note));
      const pre = el("pre", cls);
      const marks = setHighlighted(pre, text, query);
      box.append(h, pre);
      return { box, pre, marks };
    }

    function whenTexts(details, fillNow) {
      details.dataset.filled = "true";
      if (texts) return fillNow();
      const wait = el("div", "ex-body ex-wait", "Reading the texts…");
      details.append(wait);
      waiting.push(() => {
        wait.remove();
        fillNow();
      });
    }

    const OUTCOMES = {
      1: ["right", "tag ok"],
      0: ["wrong", "tag bad"],
      2: ["wrong answer", "tag bad"],
      3: ["no answer found", "tag none"],
    };
    const outcomeTag = (i, prefix = "") => {
      const [text, cls] = OUTCOMES[outcome(i)];
      return el("span", cls, prefix + text);
    };
    // a row whose scorer found no answer shows none (the text it kept is not an answer)
    const noAnswer = (i) => P.extracted[i] === null || P.found[i] === 0;
    const extractedText = (i) =>
      noAnswer(i) ? "(none: the scorer found no answer)" : P.extracted[i];
    const runName = (run) => P.run_labels[run];

    /** The extracted answer beside the target. */
    function answerBox(i) {
      const box = el("div", "ex-pair-fields");
      const x = field("Extracted answer", extractedText(i), null, "ex-extracted");
      const t = field("Target", P.targets[P.target[i]], null, "ex-target");
      box.append(x.box, t.box);
      return box;
    }

    function fillRow(details, i) {
      const body = el("div", "ex-body");
      const qt = texts.q_text[P.q[i]], rt = texts.response[i];
      const q = field("Question", qt, `(${fmt(qt.length)} characters)`, "ex-question");
      const r = field("Response", rt, `(${fmt(rt.length)} characters)`, "ex-response");
      body.append(answerBox(i), q.box, r.box);
      details.append(body);
      const first = r.pre.querySelector("mark");
      if (first) r.pre.scrollTop = Math.max(0, first.offsetTop - r.pre.offsetTop - 40);
    }

    /** "right in 2 of 3 epochs", flagged when the verdict flips; null with one epoch. */
    function stabilityTag(g) {
      const size = G.rows[g].length;
      if (size < 2) return null;
      const text = `right in ${G.right[g]} of ${size} epochs`;
      return el("span", G.unstable(g) ? "tag flag" : "tag", text);
    }

    function whereText(i) {
      const q = P.q[i];
      return `${taskLabel(P.q_task[q])} #${P.q_index[q]}`;
    }

    function rowItem(i, pos) {
      const li = el("li");
      const d = el("details", "ex-row");
      d.dataset.row = String(i);
      const s = el("summary");
      s.append(el("span", "num", `${fmt(pos)}.`));
      s.append(outcomeTag(i));
      const who = el("span", "ex-run", runName(P.run[i]));
      who.title = P.runs[P.run[i]];
      s.append(who);
      s.append(
        el("span", "ex-task", whereText(i) + (multiEpoch ? ` · epoch ${P.epoch[i]}` : "")),
      );
      if (P.subset[i] !== -1) s.append(el("span", "tag", P.subsets[P.subset[i]]));
      const ans = el("span", "ex-answer");
      const x = P.extracted[i];
      ans.append("answer ", el("code", null, noAnswer(i) ? "(none)" : shorten(x, 60)));
      ans.append(" · target ", el("code", null, shorten(P.targets[P.target[i]], 60)));
      s.append(ans);
      const stab = stabilityTag(G.rowGroup[i]);
      if (stab) s.append(stab);
      if (P.failure[i] !== -1) s.append(el("span", "tag", P.failures[P.failure[i]]));
      if (P.disagree[i] === 1) s.append(el("span", "tag flag", "scorers disagree"));
      d.append(s);
      d.addEventListener("toggle", () => {
        if (d.open && !d.dataset.filled) whenTexts(d, () => fillRow(d, i));
      });
      li.append(d);
      return li;
    }

    /** One side of a pair in the summary: "A: right" or "A: right in 2 of 3 epochs". */
    function sideTag(side, g) {
      const rows = G.rows[g];
      if (rows.length === 1) return outcomeTag(rows[0], `${side}: `);
      const cls = G.right[g] === rows.length ? "tag ok" : G.right[g] === 0 ? "tag bad" : "tag flag";
      return el("span", cls, `${side}: right in ${G.right[g]} of ${rows.length} epochs`);
    }

    /** One run's column of a pair: its responses, one per epoch, each with its verdict. */
    function sideColumn(side, run, g) {
      const col = el("div", "ex-side");
      const who = el("p", "ex-side-run", `${side}: ${runName(run)}`);
      who.title = P.runs[run];
      col.append(who);
      for (const i of G.rows[g]) {
        const head = el("p", "ex-side-head");
        head.append(outcomeTag(i));
        if (multiEpoch) head.append(` epoch ${P.epoch[i]} · `);
        else head.append(" ");
        head.append("answer ", el("code", "ex-extracted", extractedText(i)));
        col.append(head);
        const r = field("Response", texts.response[i], null, "ex-response");
        col.append(r.box);
      }
      return col;
    }

    function fillPair(details, i, a, b) {
      const q = P.q[i];
      const body = el("div", "ex-body");
      const qt = texts.q_text[q];
      const qf = field("Question", qt, `(${fmt(qt.length)} characters)`, "ex-question");
      const t = field("Target", P.targets[P.target[i]], null, "ex-target");
      const sides = el("div", "ex-sides");
      sides.append(
        sideColumn("A", a, G.index.get(a * nq + q)),
        sideColumn("B", b, G.index.get(b * nq + q)),
      );
      body.append(t.box, qf.box, sides);
      details.append(body);
    }

    function pairItem(i, pos) {
      const a = selected(ui.runA), b = selected(ui.runB), q = P.q[i];
      const li = el("li");
      const d = el("details", "ex-row ex-pair-row");
      d.dataset.q = String(q);
      const s = el("summary");
      s.append(el("span", "num", `${fmt(pos)}.`));
      s.append(el("span", "ex-task", whereText(i)));
      if (P.subset[i] !== -1) s.append(el("span", "tag", P.subsets[P.subset[i]]));
      s.append(sideTag("A", G.index.get(a * nq + q)), sideTag("B", G.index.get(b * nq + q)));
      const ans = el("span", "ex-answer");
      const first = (run) => G.rows[G.index.get(run * nq + q)][0];
      const code = (r) => el("code", null, noAnswer(r) ? "(none)" : shorten(P.extracted[r], 40));
      ans.append("A ", code(first(a)), " · B ", code(first(b)));
      ans.append(" · target ", el("code", null, shorten(P.targets[P.target[i]], 40)));
      s.append(ans);
      d.append(s);
      d.addEventListener("toggle", () => {
        if (d.open && !d.dataset.filled) whenTexts(d, () => fillPair(d, i, a, b));
      });
      li.append(d);
      return li;
    }

    function render() {
      const size = Number(ui.size.value) || 50;
      const pages = Math.max(1, Math.ceil(matches.length / size));
      if (page >= pages) page = pages - 1;
      const from = page * size, to = Math.min(matches.length, from + size);
      const unit = mode === "pairs" ? "examples" : "rows";
      ui.count.textContent = `${fmt(matches.length)} of ${fmt(total)} ${unit}`;
      const item = mode === "pairs" ? pairItem : rowItem;
      const items = [];
      for (let k = from; k < to; k++) items.push(item(matches[k], k + 1));
      ui.list.start = from + 1;
      ui.list.replaceChildren(...items);
      if (items.length === 0) {
        ui.list.append(
          el("li", "ex-empty", `No ${unit === "rows" ? "row" : "example"} matches these filters.`),
        );
      }
      for (const p of ui.pagers) {
        p.querySelector(".ex-prev").disabled = page === 0;
        p.querySelector(".ex-next").disabled = page >= pages - 1;
        p.querySelector(".ex-page").textContent = `Page ${fmt(page + 1)} of ${fmt(pages)}`;
      }
    }

    function setMode(m) {
      mode = m;
      ui.form.dataset.mode = m;
      if (m === "pairs") pairOptions(selected(ui.runA), selected(ui.runB));
      applyFilters();
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
    ui.form.addEventListener("reset", () =>
      setTimeout(() => {
        if (P.runs.length >= 2) {
          ui.runA.value = "0";
          ui.runB.value = "1";
        }
        if (mode === "pairs") pairOptions(selected(ui.runA), selected(ui.runB));
        applyFilters();
      }, 0));
    for (const m of ui.modes) m.addEventListener("change", () => m.checked && setMode(m.value));
    for (const s of [ui.runA, ui.runB]) {
      s.addEventListener("change", () => {
        pairOptions(selected(ui.runA), selected(ui.runB));
        applyFilters();
      });
    }
    for (
      const s of [
        ui.run,
        ui.pair,
        ui.task,
        ui.subset,
        ui.verdict,
        ui.failure,
        ui.disagree,
        ui.stability,
      ]
    ) {
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
