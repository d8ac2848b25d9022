// The table page's live glue: the event stream, the follow-up reads it triggers, and the page's comforts.
// htmx posts the forms; this file owns the stream so that a page can never say "live" while it is not:
// - the stream resumes after the newest event this page has shown (?after=ID, then Last-Event-ID);
// - the server sends a `ping` event every few seconds; no event or ping for about two ping intervals, or
//   the browser coming back online or to the foreground, and the stream is reopened;
// - after every (re)open, and after any follow-up read (status, a sheet, the odds) that failed, the
//   status and the sheets are read again, retried until they succeed;
// - the indicator says "live" only while the stream is open, recently heard and every read succeeded,
//   else "reconnecting" and since when the page has not been current.
// No inline script or style is used anywhere (the pages' Content-Security-Policy allows none).
(function () {
  "use strict";
  var body = document.body;
  // the chronicle's own address ("/" or "/t/KEY/" on a server of many chronicles): every read goes under it
  var BASE = body.getAttribute("data-base") || "/";
  var PING = Math.max(1, parseFloat(body.getAttribute("data-ping") || "5")) * 1000;
  var WATCH = 2 * PING + 1000;
  var FEED_MAX = 200;
  var KINDS = ["roll", "sheet", "scene", "extended", "contest", "message", "whisper", "initiative", "attack", "call", "ping"];
  var myCharacter = body.getAttribute("data-character") || "";
  var last = parseInt(body.getAttribute("data-after") || "0", 10);
  var source = null;
  var heard = 0;
  var failed = {};          // url -> true while a follow-up read of it has not succeeded
  var staleSince = null;    // Date the page was last known current (null: it is current)
  var retryTimer = null;

  // ------------------------------------------------------------------ settings (kept in localStorage)
  function setting(name, fallback) {
    try {
      var v = window.localStorage.getItem("stkit-" + name);
      return v === null ? fallback : v === "1";
    } catch (e) { return fallback; }
  }
  function remember(name, on) {
    try { window.localStorage.setItem("stkit-" + name, on ? "1" : "0"); } catch (e) { /* private mode */ }
  }
  var reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  function bindToggle(id, name, fallback) {
    var box = document.getElementById(id);
    if (!box) { return; }
    box.checked = setting(name, fallback);
    box.addEventListener("change", function () { remember(name, box.checked); });
  }
  bindToggle("opt-motion", "motion", !reduced);
  bindToggle("opt-sound", "sound", false);
  function wants(id) { var box = document.getElementById(id); return !!(box && box.checked); }

  // ------------------------------------------------------------------ local times
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function hhmm(d) { return two(d.getHours()) + ":" + two(d.getMinutes()); }
  function localTimes(root) {
    var times = (root || document).querySelectorAll("time[datetime]");
    for (var i = 0; i < times.length; i++) {
      var t = times[i];
      if (t.getAttribute("data-local")) { continue; }
      var d = new Date(t.getAttribute("datetime"));
      if (isNaN(d.getTime())) { continue; }
      t.textContent = hhmm(d) + ":" + two(d.getSeconds());
      t.setAttribute("data-local", "1");
      t.title = d.toString();
    }
  }

  // ------------------------------------------------------------------ the indicator
  function indicate() {
    var live = document.getElementById("live");
    if (!live || revoked) { return; }
    var open = source && source.readyState === 1;
    var recent = Date.now() - heard < WATCH;
    var current = open && recent && Object.keys(failed).length === 0;
    if (current) {
      staleSince = null;
      if (live.textContent !== "live") { live.textContent = "live"; }
      live.className = "live";
      body.removeAttribute("data-stale");
      return;
    }
    if (staleSince === null) { staleSince = new Date(heard || Date.now()); }
    var text = (open && recent ? "catching up" : "reconnecting") + ", stale since " + hhmm(staleSince);
    if (live.textContent !== text) { live.textContent = text; }
    live.className = "offline";
    body.setAttribute("data-stale", "1");
  }

  // ------------------------------------------------------------------ a link that stopped working
  var revoked = false;
  function linkRevoked() {
    if (revoked) { return; }
    revoked = true;
    if (source) { source.close(); }
    if (retryTimer) { window.clearTimeout(retryTimer); retryTimer = null; }
    var live = document.getElementById("live");
    if (live) {
      live.textContent = "this link no longer works (revoked or replaced): ask the Storyteller for a new one";
      live.className = "offline";
    }
    body.setAttribute("data-stale", "1");
    body.setAttribute("data-revoked", "1");
    var old = document.querySelectorAll(".form-result, #prompts");
    for (var i = 0; i < old.length; i++) { old[i].innerHTML = ""; }  // nothing on screen passes for new
  }
  // the stream ended for good: a 403 from the page's own status says the link is gone, else retry
  function checkLink(then) {
    fetch(BASE + "status", { credentials: "same-origin", headers: { "HX-Request": "true" }, cache: "no-store" })
      .then(function (r) { if (r.status === 403) { linkRevoked(); } else { then(); } })
      .catch(function () { then(); });
  }

  // ------------------------------------------------------------------ follow-up reads
  function replace(el, html) {
    el.innerHTML = html;
    if (window.htmx) { window.htmx.process(el); }
    localTimes(el);
  }
  function read(url, el, then) {
    if (!el) { return; }
    var done = function (ok) {
      if (ok) { delete failed[url]; } else { failed[url] = true; scheduleRetry(); }
      indicate();
    };
    fetch(url, { credentials: "same-origin", headers: { "HX-Request": "true" }, cache: "no-store" })
      .then(function (r) {
        if (r.status === 403) { linkRevoked(); }
        if (!r.ok) { throw new Error("HTTP " + r.status); }
        return r.text();
      })
      .then(function (html) { replace(el, html); done(true); if (then) { then(); } })
      .catch(function () { done(false); });
  }
  // one read for a burst of events (a fight writes several in a moment)
  var statusTimer = null;
  function readStatus() {
    if (statusTimer) { return; }
    statusTimer = window.setTimeout(function () {
      statusTimer = null;
      read(BASE + "status", document.getElementById("status"), afterStatus);
    }, 150);
  }
  function readSheet(id) {
    read(BASE + "sheet/" + id, document.getElementById("sheet-" + id), function () { refreshOdds(id); });
    read(BASE + "saved/" + id, document.getElementById("saved-" + id));
  }
  function readAllSheets() {
    var sheets = document.querySelectorAll(".sheet[data-character-id]");
    for (var i = 0; i < sheets.length; i++) { readSheet(sheets[i].getAttribute("data-character-id")); }
  }
  // one odds read per burst of reasons (the stream opening, a sheet read, a roll): each preview once
  var oddsDue = [];
  var oddsTimer = null;
  function refreshOdds(id, selector) {
    var odds = document.querySelectorAll(selector || (id ? "#roll-form-" + id + " .odds" : ".roll-form .odds"));
    for (var i = 0; i < odds.length; i++) {
      if (oddsDue.indexOf(odds[i]) < 0) { oddsDue.push(odds[i]); }
    }
    if (oddsTimer) { return; }
    oddsTimer = window.setTimeout(function () {
      var due = oddsDue;
      oddsDue = [];
      oddsTimer = null;
      for (var j = 0; j < due.length; j++) {
        if (window.htmx) { window.htmx.trigger(due[j], "refresh"); }
      }
    }, 80);
  }
  var seenPrompts = {};
  var turnShown = false;
  var promptTimer = null;
  function readPrompts() {
    read(BASE + "prompts", document.getElementById("prompts"), function () {
      // a player's time to answer runs out: read the prompts again then (the Storyteller may answer)
      var waits = document.querySelectorAll("#prompts .attack-prompt time[datetime]");
      var soonest = null;
      for (var w = 0; w < waits.length; w++) {
        var at = new Date(waits[w].getAttribute("datetime")).getTime() - Date.now();
        if (!isNaN(at) && at > 0 && (soonest === null || at < soonest)) { soonest = at; }
      }
      if (promptTimer) { window.clearTimeout(promptTimer); promptTimer = null; }
      if (soonest !== null) { promptTimer = window.setTimeout(readPrompts, soonest + 250); }
      var mine = document.querySelectorAll("#prompts [data-mine='1']");
      for (var i = 0; i < mine.length; i++) {
        var id = mine[i].getAttribute("data-prompt");
        if (seenPrompts[id]) { continue; }
        seenPrompts[id] = true;
        mine[i].scrollIntoView({ block: "start" });
        if (navigator.vibrate) { navigator.vibrate([200, 80, 200]); }
      }
    });
  }
  function afterStatus() {
    var turn = document.getElementById("your-turn");
    if (turn && !turnShown && navigator.vibrate) { navigator.vibrate(300); }
    turnShown = !!turn;
  }
  function placeCard(html, logIds) {
    var holder = document.createElement("ol");
    holder.innerHTML = html;
    var card = holder.firstElementChild;
    if (!card) { return null; }
    (logIds || []).forEach(function (lid) {
      var old = document.querySelectorAll("#feed > li.roll[data-log-id='" + lid + "']");
      for (var i = 0; i < old.length; i++) { old[i].remove(); }
    });
    var same = card.id ? document.getElementById(card.id) : null;
    if (same) { same.replaceWith(card); localTimes(card); return card; }
    return addToFeed(html, null);
  }
  // every character select follows the chronicle's characters (one made mid-evening reaches them all)
  var known = {};
  function noteKnown(list) {
    known = {};
    for (var i = 0; i < list.length; i++) { known[String(list[i][0])] = true; }
  }
  (function () {
    var first = document.querySelector("select.character-select");
    var opts = first ? first.options : [];
    for (var i = 0; i < opts.length; i++) { if (opts[i].value) { known[opts[i].value.replace("#", "")] = true; } }
  })();
  function readCharacters() {
    fetch(BASE + "characters", { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { if (!r.ok) { throw new Error("HTTP " + r.status); } return r.json(); })
      .then(function (list) {
        noteKnown(list);
        var selects = document.querySelectorAll("select.character-select");
        for (var i = 0; i < selects.length; i++) {
          var sel = selects[i];
          var prefix = sel.getAttribute("data-prefix") || "";
          var chosen = sel.value;
          var keep = [];
          for (var k = 0; k < sel.options.length; k++) { if (!sel.options[k].value) { keep.push(sel.options[k]); } }
          sel.innerHTML = "";
          keep.forEach(function (o) { sel.appendChild(o); });
          for (var j = 0; j < list.length; j++) {
            if (sel.getAttribute("data-others") && String(list[j][0]) === myCharacter) { continue; }
            var opt = document.createElement("option");
            opt.value = prefix + list[j][0];
            opt.textContent = list[j][1];
            sel.appendChild(opt);
          }
          sel.value = chosen;
          if (sel.value !== chosen && sel.options.length) { sel.selectedIndex = 0; }
        }
      })
      .catch(function () { /* the next sheet event tries again */ });
  }
  function readEverything() {
    failed = {};
    readPrompts();
    readStatus();
    readAllSheets();  // each sheet read refreshes its own form's odds
    refreshOdds(null, "#plain-roll .odds");
    readCharacters();
  }
  function scheduleRetry() {
    if (retryTimer || revoked) { return; }
    retryTimer = window.setTimeout(function () {
      retryTimer = null;
      if (Object.keys(failed).length) { readEverything(); }
    }, 2000);
  }

  // ------------------------------------------------------------------ the feed
  function addToFeed(html, id) {
    if (id && document.getElementById("ev-" + id)) { return null; }
    var feed = document.getElementById("feed");
    if (!feed) { return null; }
    var holder = document.createElement("ol");
    holder.innerHTML = html;
    var item = holder.firstElementChild;
    if (!item) { return null; }
    feed.insertBefore(item, feed.firstChild);
    while (feed.children.length > FEED_MAX) { feed.removeChild(feed.lastElementChild); }  // the log page has all
    var empty = document.getElementById("feed-empty");
    if (empty) { empty.remove(); }
    localTimes(item);
    applyFilter(item);
    return item;
  }
  function feel(item) {
    if (!item || !(item.classList.contains("roll") || item.classList.contains("card"))) { return; }
    var mine = myCharacter && item.getAttribute("data-character-id") === myCharacter;
    if (wants("opt-motion") && !reduced) {
      item.classList.add("rolling");
      window.setTimeout(function () { item.classList.remove("rolling"); }, 700);
    }
    if (wants("opt-sound")) { clatter(); }
    if (mine && item.classList.contains("botch") && navigator.vibrate) { navigator.vibrate([120, 60, 120]); }
  }
  var audio = null;
  function clatter() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      for (var i = 0; i < 4; i++) {
        var osc = audio.createOscillator();
        var gain = audio.createGain();
        var at = audio.currentTime + i * 0.07;
        osc.frequency.value = 500 + Math.random() * 700;
        gain.gain.setValueAtTime(0.08, at);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.06);
        osc.connect(gain).connect(audio.destination);
        osc.start(at);
        osc.stop(at + 0.07);
      }
    } catch (e) { /* no audio */ }
  }

  // the Storyteller's feed filters: by character, kind and scene (on the page; the log page reads the store)
  function applyFilter(item) {
    var form = document.getElementById("feed-filter");
    if (!form) { return; }
    var items = item ? [item] : document.querySelectorAll("#feed > li");
    var who = form.elements.character ? form.elements.character.value : "";
    var kind = form.elements.kind ? form.elements.kind.value : "";
    var scene = form.elements.scene ? form.elements.scene.value : "";
    for (var i = 0; i < items.length; i++) {
      var li = items[i];
      var show = (!who || li.getAttribute("data-character-id") === who) &&
        (!kind || li.getAttribute("data-kind") === kind) &&
        (!scene || li.getAttribute("data-scene-id") === scene);
      li.hidden = !show;
    }
  }
  var filter = document.getElementById("feed-filter");
  if (filter) {
    filter.addEventListener("change", function () { applyFilter(null); });
    filter.addEventListener("submit", function (e) {
      if (e.submitter && e.submitter.getAttribute("formaction")) { return; }  // the whole night's log page
      e.preventDefault();
      applyFilter(null);
    });
  }

  // ------------------------------------------------------------------ the stream
  function onEvent(evt) {
    heard = Date.now();
    var id = parseInt(evt.lastEventId || "0", 10);
    if (evt.type !== "ping" && id > last) { last = id; }
    var data = evt.data || "";
    switch (evt.type) {
      case "roll":
        feel(addToFeed(data, evt.lastEventId));
        // whose action it is follows the rolls of the turn (only while an initiative order shows)
        if (document.querySelector("#status .initiative")) { readStatus(); }
        break;
      case "message":
      case "whisper":
        addToFeed(data, evt.lastEventId);
        break;
      case "sheet":
        var cid = null;
        try { cid = JSON.parse(data).character_id; } catch (e) { cid = null; }
        if (cid && !known[String(cid)]) { readCharacters(); }
        if (cid && document.getElementById("sheet-" + cid)) { readSheet(cid); } else { readAllSheets(); }
        readStatus();  // the party strip shows every sheet's health and points
        break;
      case "attack":
      case "call":
        var info = {};
        try { info = JSON.parse(data); } catch (e) { info = {}; }
        if (info.card) { feel(placeCard(info.card, info.log_ids)); }
        readPrompts();
        readStatus();
        break;
      case "scene":
      case "initiative":
      case "extended":
      case "contest":
        readStatus();
        break;
      default:
        break;
    }
    indicate();
  }
  function open() {
    if (revoked) { return; }
    if (source) { source.close(); }
    heard = Date.now();
    source = new EventSource(BASE + "events?after=" + last);
    source.onopen = function () { heard = Date.now(); readEverything(); indicate(); };
    source.onerror = function () {
      indicate();
      if (source.readyState === 2) {  // closed for good: start again, unless the link is gone
        window.setTimeout(function () { checkLink(open); }, 1000);
      }
    };
    for (var i = 0; i < KINDS.length; i++) { source.addEventListener(KINDS[i], onEvent); }
    indicate();
  }
  function reopen() {
    if (staleSince === null) { staleSince = new Date(heard || Date.now()); }  // stale since last heard
    heard = 0;
    indicate();
    open();
  }
  var watchdog = window.setInterval(function () {
    if (revoked) { window.clearInterval(watchdog); return; }
    if (Date.now() - heard > WATCH) { checkLink(reopen); } else { indicate(); }
  }, 1000);
  window.addEventListener("online", reopen);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { reopen(); keepAwake(); }
  });
  window.addEventListener("pagehide", function () { if (source) { source.close(); } });

  // ------------------------------------------------------------------ forms
  document.addEventListener("htmx:afterRequest", function (evt) {
    var form = evt.detail.elt && evt.detail.elt.closest ? evt.detail.elt.closest("form") : null;
    var config = evt.detail.requestConfig || {};
    if (!form || String(config.verb || "").toLowerCase() !== "post") { return; }  // the odds preview is a GET
    if (!evt.detail.successful) {
      var out = form.querySelector(".form-result") || document.getElementById("st-result");
      if (out && evt.detail.xhr && evt.detail.xhr.status === 0) {
        out.textContent = "Not sent: the server cannot be reached. Nothing was rolled; try again.";
        out.className = "form-result error";
      }
      return;
    }
    if (form.classList.contains("roll-form")) {
      // one Willpower point is spent per roll: the tick never carries over to the next roll
      var boxes = form.querySelectorAll("input[name='willpower'], input[name='confirm_visible']");
      for (var i = 0; i < boxes.length; i++) { boxes[i].checked = false; }
      var result = form.querySelector(".form-result .result");
      if (result) {
        if (wants("opt-motion") && !reduced) {
          result.classList.add("rolling");
          window.setTimeout(function () { result.classList.remove("rolling"); }, 700);
        }
        if (result.classList.contains("botch") && navigator.vibrate) { navigator.vibrate([120, 60, 120]); }
        result.scrollIntoView({ block: "nearest" });
      }
    }
    if (body.classList.contains("storyteller") && !form.classList.contains("roll-form")) {
      readStatus();  // a control's change shows at once, even one that writes no table event
    }
    if (form.classList.contains("clear-after")) {
      var text = form.querySelector("input[name='text']");
      if (text) { text.value = ""; }
    }
  });
  // a failed odds read is a stale page too
  document.addEventListener("htmx:responseError", function () { indicate(); });
  document.addEventListener("htmx:afterSwap", function (evt) { localTimes(evt.detail.target); });
  // "Sheet" buttons of the party strip open that character's sheet
  document.addEventListener("click", function (evt) {
    var btn = evt.target.closest ? evt.target.closest("[data-open-sheet]") : null;
    if (!btn) { return; }
    var details = document.getElementById("sheet-details-" + btn.getAttribute("data-open-sheet"));
    if (details) { details.open = true; details.scrollIntoView({ block: "start" }); evt.preventDefault(); }
  });

  // ------------------------------------------------------------------ keep the screen awake during play
  var lock = null;
  function keepAwake() {
    if (!("wakeLock" in navigator) || lock) { return; }
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      l.addEventListener("release", function () { lock = null; });
    }).catch(function () { /* not allowed here (no secure context, battery saver) */ });
  }

  document.documentElement.classList.add("js");
  localTimes(document);
  keepAwake();
  open();
})();
