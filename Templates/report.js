/* Search, sort and column choice over the table the page already shows: without this script
   the page reads the same, only fixed. The view lives in the address's fragment
   (#q=btc&sort=c&dir=asc&cur=USD), so a link reopens it; the hidden columns live in localStorage. */
(function () {
  "use strict";
  // The words the script writes, from the page's string table in the page's language:
  // say("scriptShownOf", 3, 267) -> "3 of 267 markets" / "3 av 267 marknader".
  var words = {};
  try { words = JSON.parse(document.getElementById("page").getAttribute("data-strings")) || {}; } catch (e) { words = {}; }
  function say(key) {
    var values = Array.prototype.slice.call(arguments, 1);
    return String(words[key] || "").replace(/\{(\d)\}/g, function (all, i) { return i < values.length ? String(values[i]) : all; });
  }
  // What waits until the page has loaded: the list comes first.
  function afterLoad(work) {
    if (document.readyState === "complete") setTimeout(work, 0);
    else window.addEventListener("load", function () { setTimeout(work, 0); });
  }
  // How long ago the data is from, when the page is read, with its time in the reader's own
  // zone; past the tool's --max-age a warning, so that a page opened years later says so. Once the
  // list is up: the first use of Intl loads the locale's data, a good part of the script's start.
  afterLoad(function () {
    var lang = document.documentElement.lang || "en";
    if (!window.Intl || !Intl.RelativeTimeFormat) return;
    var relative = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
    var units = [["year", 31557600], ["month", 2629800], ["week", 604800], ["day", 86400], ["hour", 3600], ["minute", 60]];
    Array.prototype.forEach.call(document.querySelectorAll(".age[data-time]"), function (span) {
      var time = Date.parse(span.getAttribute("data-time")), limit = Number(span.getAttribute("data-max-age"));
      if (isNaN(time)) return;
      var seconds = (Date.now() - time) / 1000, unit = units.filter(function (u) { return Math.abs(seconds) >= u[1]; })[0];
      var ago = unit ? relative.format(-Math.round(seconds / unit[1]), unit[0]) : relative.format(0, "minute");
      var local = new Date(time).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
      var old = limit > 0 && seconds > limit;
      span.textContent = say(old ? "scriptDataOld" : "scriptUpdated", ago + " (" + local + ")");
      if (old) span.className = "age old";
    });
  });
  // The view in the address's fragment: the search, the sorted column and its direction, and
  // the currency shown. A fragment without "=" names a market's detail (#btcusdt) instead.
  var view = { q: "", sort: "", dir: "", cur: "" };
  // What the table shows (its search and order): a hash change that leaves them as they are (a
  // detail closing back to a sorted view, in either currency) leaves the table alone, which
  // rebuilt would lose the reader's place and focus.
  var applied = null;
  function tableState() { return [view.q, view.sort, view.dir].join("\n"); }
  function readFragment() {
    var hash = location.hash.slice(1);
    if (hash.indexOf("=") < 0) return false;
    view = { q: "", sort: "", dir: "", cur: "" };
    hash.split("&").forEach(function (part) {
      var pair = part.split("="), name = pair[0], value = "";
      try { value = decodeURIComponent((pair[1] || "").replace(/\+/g, " ")); } catch (e) { return; }
      if (name === "q" || name === "sort" || name === "dir" || name === "cur") view[name] = value;
    });
    return true;
  }
  function fragment() {
    var parts = [];
    if (view.q) parts.push("q=" + encodeURIComponent(view.q));
    if (view.sort) parts.push("sort=" + encodeURIComponent(view.sort), "dir=" + view.dir);
    if (view.cur) parts.push("cur=" + encodeURIComponent(view.cur));
    return parts.join("&");
  }
  function writeFragment() {
    var text = fragment(), address = location.href.split("#")[0] + (text ? "#" + text : "");
    applied = tableState();
    try { history.replaceState(null, "", address); } catch (e) { if (text) location.replace(address); }
  }
  readFragment();

  // A change to every row of the list (an order, a search, a currency) reaches at once the rows
  // that reach the window; the others leave the list and come back once the browser has drawn
  // those: laying out the whole list again is most of what a click costs. Anything
  // the reader does next (a click, a key, an address, printing) first puts back what is left, and
  // the table says it is busy meanwhile (aria-busy).
  var table = document.querySelector("table.markets"), later = null, painted = false;
  requestAnimationFrame(function () { painted = true; });
  // A market's row by its detail's id, in the list or out of it for a moment.
  var rowById = {};
  if (table) Array.prototype.forEach.call(table.tBodies[0].rows, function (row) { rowById[row.id] = row; });
  function rowFor(id) { return rowById["m-" + id] || null; }
  var rowsBack = [];
  function finishRows() {
    var rest = later, waiting = rowsBack;
    later = null;
    rowsBack = [];
    if (rest) {
      table.removeAttribute("aria-busy");
      rest(Infinity);
    }
    waiting.forEach(function (work) { work(); });
  }
  // What needs every row as it now is (a built detail reads its row): at once, or when they are back.
  function whenRowsBack(work) {
    if (later) rowsBack.push(work);
    else work();
  }
  // How many rows of the list, from its top, may reach the window: every row at the height of
  // its lowest one. All of them before the page is first drawn, while a detail is open over the
  // list (it reads its row), or while the keyboard is in the list (a row taken out loses focus).
  function rowsOnScreen() {
    var body = table && table.tBodies[0];
    if (!painted || !body || document.querySelector(".detail:target") || body.contains(document.activeElement)) return Infinity;
    var top = body.getBoundingClientRect().top, lowest = Infinity;
    for (var i = 0; i < body.rows.length; i++) if (body.rows[i].offsetHeight) lowest = Math.min(lowest, body.rows[i].offsetHeight);
    return lowest === Infinity ? Infinity : Math.max(0, Math.ceil((window.innerHeight - top) / lowest)) + 4;
  }
  // Puts `list` (every row, in the list's order) in the list: the first `onScreen` shown rows now,
  // the rest once those are drawn; `change`, when given, is done to each row as it comes.
  function showRows(list, onScreen, change) {
    var body = table.tBodies[0], at = 0;
    var step = function (count) {
      var fragment = document.createDocumentFragment();
      for (; at < list.length && count > 0; at++) {
        if (change) change(list[at]);
        fragment.appendChild(list[at]);
        if (!list[at].hidden) count--;
      }
      body.appendChild(fragment);
      return at >= list.length;
    };
    if (onScreen === Infinity) {
      var current = body.rows, same = current.length === list.length;
      for (var i = 0; same && i < list.length; i++) same = current[i] === list[i];
      if (!same) step(Infinity);
      else if (change) list.forEach(change);
      return;
    }
    body.textContent = "";
    if (step(onScreen)) return;
    later = step;
    table.setAttribute("aria-busy", "true");
    // After the frame that shows them: a callback of the next frame runs before it is drawn.
    requestAnimationFrame(function () { setTimeout(function () { if (later === step) finishRows(); }, 0); });
  }
  ["click", "keydown", "pointerdown"].forEach(function (type) { document.addEventListener(type, finishRows, true); });
  window.addEventListener("hashchange", finishRows);
  window.addEventListener("beforeprint", finishRows);

  // Two currencies (--currency SEK,USD): the page is written in the first; each figure holds
  // the second's in data-alt (a row's tooltip in data-alt-title), and what differs in length
  // between them (the summary, the charts, the footer) is there twice, as .cur-0 and .cur-1.
  // The reader's choice is remembered on this computer; a link may name one (#cur=USD, as
  // index.html links the second currency), which wins.
  var switcher = document.getElementById("currency-switch");
  if (switcher) {
    // Every figure with its first currency's text, and the list's figures by row, gathered once
    // the page has loaded (or at a switch before that): the page opens in its first currency.
    var figures = null, firstTexts, firstTitles, outside = [];
    var lastText = function (element) {
      for (var node = element.lastChild; node; node = node.previousSibling) if (node.nodeType === 3) return node;
      return null;
    };
    var gather = function () {
      figures = Array.prototype.slice.call(document.querySelectorAll("[data-alt], [data-alt-title]"));
      firstTexts = figures.map(function (element) { var node = lastText(element); return node ? node.nodeValue : ""; });
      firstTitles = figures.map(function (element) { return element.getAttribute("title"); });
      figures.forEach(function (element, i) {
        var row = table && element.closest("tr");
        if (row && row.parentNode === table.tBodies[0]) (row.figureIndexes = row.figureIndexes || []).push(i);
        else outside.push(i);
      });
    };
    afterLoad(function () { if (!figures) { finishRows(); gather(); } });
    var choices = Array.prototype.slice.call(switcher.querySelectorAll("button"));
    var currencyKey = "cryptoreport.currency", shownCurrency = 0;
    var showCurrency = function (index) {
      if (index === shownCurrency) return;
      finishRows();
      if (!figures) gather();
      shownCurrency = index;
      var show = function (i) {
        var element = figures[i];
        if (element.hasAttribute("data-alt")) {
          var text = index === 1 ? element.getAttribute("data-alt") : firstTexts[i], node = lastText(element);
          if (node) node.nodeValue = text; else if (text) element.appendChild(document.createTextNode(text));
        }
        if (element.hasAttribute("data-alt-title")) element.setAttribute("title", index === 1 ? element.getAttribute("data-alt-title") : firstTitles[i]);
      };
      // The rows off screen leave the list and change as they come back, after a frame.
      if (table) showRows(Array.prototype.slice.call(table.tBodies[0].rows), rowsOnScreen(), function (row) { (row.figureIndexes || []).forEach(show); });
      outside.forEach(show);
      document.documentElement.setAttribute("data-cur", String(index));
      document.dispatchEvent(new CustomEvent("cryptoreport:currency", { detail: index }));
      choices.forEach(function (button, i) { button.setAttribute("aria-pressed", String(i === index)); });
    };
    choices.forEach(function (button, i) {
      button.setAttribute("aria-pressed", String(i === 0));
      button.addEventListener("click", function () {
        showCurrency(i);
        try { localStorage.setItem(currencyKey, button.textContent); } catch (e) { /* private mode: this page only */ }
        // Kept in the address too, so that a link sent from here opens in this currency (an
        // open detail keeps its own address until it closes).
        view.cur = button.textContent;
        if (!document.querySelector(".detail:target")) writeFragment();
      });
    });
    var showNamed = function (code) {
      choices.forEach(function (button, i) { if (button.textContent === code) showCurrency(i); });
    };
    var remembered = null;
    try { remembered = localStorage.getItem(currencyKey); } catch (e) { remembered = null; }
    showNamed(view.cur || remembered);
    window.addEventListener("hashchange", function () { if (readFragment() && view.cur) showNamed(view.cur); });
    switcher.hidden = false;
  }
  // The converter: an amount times a unit's value in a report currency, both exact decimal
  // strings (the CSV's figures), multiplied as integers, and formatted by the browser in the
  // currency's locale with as many decimals as the page shows such a figure with.
  var converter = document.getElementById("converter");
  // Set up once the list is up, as the freshness line is: it is after the list.
  if (converter) afterLoad(function () {
    var data;
    try { data = JSON.parse(converter.getAttribute("data-rates")); } catch (e) { return; }
    var amount = document.getElementById("conv-amount"), from = document.getElementById("conv-from");
    var into = document.getElementById("conv-to"), result = document.getElementById("conv-result");
    var via = document.getElementById("conv-via");
    function decimal(text) {
      var match = /^(\d*)(?:\.(\d*))?$/.exec(text);
      if (!match || !(match[1] || match[2])) return null;
      var fraction = match[2] || "";
      return { digits: BigInt((match[1] || "0") + fraction), scale: fraction.length };
    }
    function plain(value) {
      var text = value.digits.toString();
      if (value.scale === 0) return text;
      while (text.length <= value.scale) text = "0" + text;
      return text.slice(0, text.length - value.scale) + "." + text.slice(text.length - value.scale);
    }
    // What a reader types: 0.5, 0,5, 1 000, 1,000.50, 1.000,50, 1.000.000, 1,00,000. With both marks the
    // last is the decimal one and the other must group by threes; a mark repeated groups; one
    // mark alone is the decimal one, but for the page language's grouping mark (1,000 in
    // English). A dot that may be either on a page whose language uses neither (1.000 in
    // Swedish) is refused, not guessed: a price a thousandfold off is worse than asking again.
    var marks = {};
    new Intl.NumberFormat(data.currencies[0].locale).formatToParts(1234567.5).forEach(function (part) { marks[part.type] = part.value; });
    // Also India's (1,00,000, as an en_IN page writes a lakh): twos before the last three.
    function grouped(text, mark) {
      return new RegExp("^[1-9]\\d{0,2}(\\" + mark + "\\d{3})+$").test(text)
        || new RegExp("^[1-9]\\d?(\\" + mark + "\\d{2})+\\" + mark + "\\d{3}$").test(text);
    }
    // Blanks and apostrophes group (1 000, 1'000, Switzerland's 1’000).
    function readAmount(text) {
      var t = text.replace(/[\s\u00a0\u202f_'\u2019]/g, "");
      var at = Math.max(t.lastIndexOf("."), t.lastIndexOf(","));
      if (at < 0) return decimal(t);
      var mark = t.charAt(at), other = mark === "." ? "," : ".", repeated = t.indexOf(mark) !== at;
      if (t.indexOf(other) >= 0) {
        var whole = t.slice(0, at);
        return !repeated && grouped(whole, other) ? decimal(whole.split(other).join("") + "." + t.slice(at + 1)) : null;
      }
      if (repeated || (mark === marks.group && grouped(t, mark))) return grouped(t, mark) ? decimal(t.split(mark).join("")) : null;
      if (mark !== marks.decimal && mark !== marks.group && grouped(t, mark)) return null;
      return decimal(t.replace(mark, "."));
    }
    // The page's rule for money: four significant digits, never fewer than two decimals below a
    // thousand; from a thousand up, the currency's own decimals (none for the yen).
    function fractionDigits(text, own) {
      var parts = text.split("."), integer = parts[0].replace(/^0+/, "");
      if (integer.length >= 4) return own;
      if (integer) return 2;
      // Nothing but zeros (an amount of 0): as little as any small figure, not 0,0000000000000.
      if (!/[1-9]/.test(parts[1] || "")) return 2;
      var zeros = (parts[1] || "").match(/^0*/)[0].length;
      return Math.min(20, Math.max(2, zeros + 4));
    }
    // Into a report currency ("c0", "c1": the product, as the table prices) or into any other
    // unit ("u12": a coin or a currency, the quotient of both values in the currency shown), so
    // that 1 000 kr can be turned into BTC as well as BTC into kronor.
    var swap = document.getElementById("conv-swap");
    function option(list, value, text) {
      var element = document.createElement("option");
      element.value = value;
      element.textContent = text;
      list.appendChild(element);
    }
    function currencyOf(unit) {
      if (unit.market) return -1;
      for (var k = 0; k < data.currencies.length; k++) if (data.currencies[k].code === unit.name) return k;
      return -1;
    }
    // The currencies first, then the most traded assets (BTC among 271 names took a long scroll
    // on a phone), then every asset by name; each in both lists.
    function group(list, label) {
      var element = document.createElement("optgroup");
      element.label = label;
      list.appendChild(element);
      return element;
    }
    data.currencies.forEach(function (currency, k) { option(into, "c" + k, currency.code); });
    data.units.forEach(function (unit, i) {
      if (unit.market) return;
      option(from, String(i), unit.name);
      if (currencyOf(unit) < 0) option(into, "u" + i, unit.name);
    });
    var popular = (data.popular || []).map(function (name) {
      return data.units.findIndex(function (unit) { return unit.market && unit.name === name; });
    }).filter(function (i) { return i >= 0; });
    var fromAll = from, intoAll = into;
    if (popular.length) {
      var fromTop = group(from, say("scriptMostTraded")), intoTop = group(into, say("scriptMostTraded"));
      popular.forEach(function (i) { option(fromTop, String(i), data.units[i].name); option(intoTop, "u" + i, data.units[i].name); });
      fromAll = group(from, say("scriptAllUnits"));
      intoAll = group(into, say("scriptAllUnits"));
    }
    data.units.forEach(function (unit, i) {
      if (!unit.market) return;
      option(fromAll, String(i), unit.name);
      option(intoAll, "u" + i, unit.name);
    });
    from.value = String(Math.max(0, data.units.findIndex(function (unit) { return unit.name === "BTC"; })));
    function quotient(top, bottom) {
      // Thirty decimals cut, then rounded to what is shown: cutting first never changes a
      // half-up rounding of fewer digits.
      if (bottom.digits === BigInt(0)) return null;
      var places = 30, ten = BigInt(10);
      return { digits: top.digits * ten ** BigInt(bottom.scale + places) / (bottom.digits * ten ** BigInt(top.scale)), scale: places };
    }
    // A coin's amount to six significant digits (0,00583381 BTC; 14,1234 ETH; 7 142 857 SHIB).
    function amountDigits(text) {
      var parts = text.split("."), integer = parts[0].replace(/^0+/, "");
      if (integer) return Math.max(0, 6 - integer.length);
      if (!/[1-9]/.test(parts[1] || "")) return 2;
      return Math.min(20, (parts[1] || "").match(/^0*/)[0].length + 6);
    }
    function marketOf(unit) {
      var market = unit.market && unit.market.indexOf(unit.name.toLowerCase()) === 0
        ? unit.name + "/" + unit.market.slice(unit.name.length).toUpperCase() : unit.market;
      return market ? " " + via.getAttribute("data-via") + " " + market : "";
    }
    function convert() {
      var unit = data.units[Number(from.value)], choice = into.value, typed = readAmount(amount.value);
      var shown = Number(document.documentElement.getAttribute("data-cur") || "0");
      var target = choice.charAt(0) === "c" ? Number(choice.slice(1)) : shown, currency = data.currencies[target];
      var other = choice.charAt(0) === "u" ? data.units[Number(choice.slice(1))] : null;
      var value = unit && currency && decimal(unit.values[target] || "");
      var per = other ? decimal(other.values[target] || "") : null;
      amount.setAttribute("aria-invalid", typed ? "false" : "true");
      if (!value || !typed || (other && !per)) { result.textContent = "–"; via.textContent = typed ? "" : via.getAttribute("data-bad"); return; }
      var product = { digits: value.digits * typed.digits, scale: value.scale + typed.scale };
      var locale = data.currencies[0].locale;
      if (!other) {
        var text = plain(product), digits = fractionDigits(text, currency.digits);
        result.textContent = new Intl.NumberFormat(currency.locale, {
          style: "currency", currency: currency.code, minimumFractionDigits: digits, maximumFractionDigits: digits
        }).format(text);
      } else {
        var share = quotient(product, per);
        if (!share) { result.textContent = "–"; via.textContent = ""; return; }
        var exact = plain(share), money = null;
        // A currency in ISO 4217 in the currency's own style; USDT (at par with USD, no market of
        // its own) is no such currency, and is written as an asset is.
        if (!other.market) try { money = new Intl.NumberFormat(locale, { style: "currency", currency: other.name }); } catch (e) { money = null; }
        if (!money) {
          var places = amountDigits(exact);
          result.textContent = new Intl.NumberFormat(locale, { minimumFractionDigits: places, maximumFractionDigits: places }).format(exact) + " " + other.name;
        } else {
          var own = fractionDigits(exact, money.resolvedOptions().maximumFractionDigits);
          result.textContent = new Intl.NumberFormat(locale, {
            style: "currency", currency: other.name, minimumFractionDigits: own, maximumFractionDigits: own
          }).format(exact);
        }
      }
      // The amount as it was read, in the page's own writing: "1,000" read as one on a Swedish
      // page (its decimal comma) says "1 BTC", so that no reading goes unseen; then each market
      // priced.
      via.textContent = new Intl.NumberFormat(locale, { maximumFractionDigits: 20 }).format(plain(typed)) + " " +
        unit.name + marketOf(unit) + (other && other.market ? ", " + other.name + marketOf(other) : "") + ", " + via.getAttribute("data-ecb") + " " + data.ecbDate;
    }
    // The other way round: what was asked for becomes what is given. A template of the reader's
    // made before the button may lack it: everything else works on.
    if (swap) swap.addEventListener("click", function () {
      var unit = data.units[Number(from.value)], choice = into.value, back;
      if (choice.charAt(0) === "u") back = choice.slice(1);
      else {
        var code = data.currencies[Number(choice.slice(1))].code;
        back = String(data.units.findIndex(function (each) { return !each.market && each.name === code; }));
      }
      if (!unit || back === "-1") return;
      var k = currencyOf(unit);
      from.value = back;
      into.value = k >= 0 ? "c" + k : "u" + data.units.indexOf(unit);
      convert();
    });
    amount.addEventListener("input", convert);
    from.addEventListener("change", convert);
    into.addEventListener("change", convert);
    // A currency switch moves a result in a report currency along; one in a coin stays a coin.
    document.addEventListener("cryptoreport:currency", function (event) {
      if (into.value.charAt(0) === "c") into.value = "c" + String(event.detail);
      convert();
    });
    into.value = "c" + (document.documentElement.getAttribute("data-cur") || "0");
    convert();
    converter.hidden = false;
  });

  // A detail's chart and earlier points, drawn from the page's history data (one JSON block per
  // currency) when the detail opens: the page holds each price once instead of a chart and a
  // table for each of hundreds of markets. The picture is the one the server draws for a card:
  // a dated axis, the low, the high and the reader's alert limits (dashed lines) labelled in a
  // right margin the line never crosses. Prices come as the page shows them (their fraction
  // digits are the page's), so Intl.NumberFormat in the report's locale writes the page's text.
  var histories = {};
  Array.prototype.forEach.call(document.querySelectorAll("script.history-data"), function (block) {
    try { histories[block.getAttribute("data-cur")] = JSON.parse(block.textContent); } catch (e) { /* the facts stay */ }
  });
  // A market's detail, built from the page's <template id="detail"> when a reader first opens it
  // (#btcusdt) and kept: its figures are its table row's in the currency shown, with what the
  // row lacks (the open, the change in money, the rate used, the asset's other markets) from
  // the detail data, one list entry per currency. Built before the address names it (a link's
  // click, the page's own address), so that :target finds it.
  var detailData = {}, detailShell = document.getElementById("detail");
  try { detailData = JSON.parse(document.getElementById("detail-data").textContent) || {}; } catch (e) { detailData = {}; }
  function currencyShown() { return Number(document.documentElement.getAttribute("data-cur") || "0"); }
  function fillDetail(detail) {
    var id = detail.id, data = detailData[id], row = rowFor(id), cur = currencyShown();
    if (!data || !row) return;
    function put(selector, text) { Array.prototype.forEach.call(detail.querySelectorAll(selector), function (e) { e.textContent = text; }); }
    function pick(list) { return list ? (list[cur] === undefined ? list[0] : list[cur]) : ""; }
    var nameNode = row.querySelector(".asset-name"), name = nameNode ? nameNode.textContent : "", pair = row.getAttribute("data-n") || id;
    var symbol = row.querySelector(".sym"), cells = row.cells, two = row.querySelectorAll("td.two");
    function part(cell, i) { var spans = cell ? cell.children : []; return spans[i] ? spans[i].textContent : ""; }
    var change = row.querySelector("td.chg"), changeClass = change ? change.className.replace(/\b(num|chg)\b/g, "").trim() : "";
    var arrow = !change || !change.textContent ? "" : changeClass === "up" ? "\u25b2" : changeClass === "down" ? "\u25bc" : "\u25a0";
    detail.setAttribute("aria-label", (name ? name + " " : "") + pair);
    var heading = detail.querySelector(".asset-name");
    heading.textContent = name;
    heading.hidden = !name;
    put(".d-pair", pair);
    put(".detail-head .sym", symbol ? symbol.textContent : id);
    put(".big", cells[1] ? cells[1].textContent : "");
    var pill = detail.querySelector(".pill");
    pill.className = "pill " + changeClass;
    pill.textContent = arrow + " " + (change ? change.textContent : "");
    var money = detail.querySelector(".d-money");
    money.className = "d-money " + changeClass;
    money.textContent = pick(data.d);
    detail.querySelector(".close").setAttribute("href", "#m-" + id);
    put(".d-open", pick(data.o));
    put(".d-high", part(two[0], 0));
    put(".d-low", part(two[0], 1));
    put(".d-bid", part(two[1], 0));
    put(".d-ask", part(two[1], 1));
    put(".d-spread", part(two[2], 1) + " · " + part(two[2], 0));
    put(".d-volume", part(two[3], 1) ? part(two[3], 1) + " " + data.b : "");
    put(".d-value", part(two[3], 0));
    put(".d-time", data.u);
    var rate = detail.querySelector(".d-rate");
    rate.hidden = !data.r;
    rate.querySelector("dd").textContent = pick(data.r);
    var history = histories[String(cur)], hasSeries = !!(history && history.m[id]), limits = (history && history.l[id]) || [];
    Array.prototype.forEach.call(detail.querySelectorAll(".d-series"), function (e) { e.hidden = !hasSeries; });
    detail.querySelector(".d-no-chart").hidden = hasSeries;
    var limitLine = detail.querySelector(".d-limits");
    limitLine.hidden = !hasSeries || !limits.length;
    Array.prototype.forEach.call(limitLine.querySelectorAll(".limit-name"), function (e) { e.remove(); });
    limits.forEach(function (limit) {
      var span = document.createElement("span");
      span.className = "limit-name";
      span.textContent = limit.t;
      limitLine.appendChild(span);
    });
    var others = detail.querySelector(".d-others"), body = others.querySelector("tbody");
    others.hidden = !data.x;
    put(".d-base", data.b);
    body.textContent = "";
    (data.x || []).forEach(function (other) {
      var line = body.insertRow(), head = document.createElement("th");
      head.scope = "row";
      if (other.s) {
        var link = document.createElement("a");
        link.href = "#" + other.a;
        link.textContent = other.p;
        head.appendChild(link);
      } else {
        head.textContent = other.p;
      }
      line.appendChild(head);
      var price = line.insertCell();
      price.className = "num";
      price.textContent = pick(other.v);
      var premium = line.insertCell();
      premium.className = "num " + other.c;
      premium.textContent = pick(other.m);
    });
  }
  function buildDetail(id) {
    var found = id && document.getElementById(id);
    if (found) return found.classList.contains("detail") ? found : null;
    if (!id || !detailShell || !detailData[id] || !rowFor(id)) return null;
    var detail = detailShell.content.firstElementChild.cloneNode(true);
    detail.id = id;
    fillDetail(detail);
    document.getElementById("page").appendChild(detail);
    if (wireDetail) wireDetail(detail);
    return detail;
  }
  // Set where the list's script is, once the table is found: a detail closes to its row.
  var wireDetail = null;
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[href^='#']");
    if (link) buildDetail(link.getAttribute("href").slice(1));
  }, true);
  document.addEventListener("cryptoreport:currency", function () {
    whenRowsBack(function () { Array.prototype.forEach.call(document.querySelectorAll("section.detail"), fillDetail); });
  });
  buildDetail(location.hash.slice(1));
  // Named by an address the page had not built yet (the browser's Back): built, then named again.
  window.addEventListener("hashchange", function () {
    var id = location.hash.slice(1);
    if (id && id.indexOf("=") < 0 && !document.getElementById(id) && buildDetail(id)) location.replace("#" + id);
  });
  var formats = {};
  function numberFormat(data, key, options) {
    key = data.locale + data.currency + key;
    return formats[key] || (formats[key] = new Intl.NumberFormat(data.locale, options));
  }
  function money(data, text) {
    var point = text.indexOf("."), digits = point < 0 ? 0 : text.length - point - 1;
    return numberFormat(data, "m" + digits, {
      style: "currency", currency: data.currency, minimumFractionDigits: digits, maximumFractionDigits: digits
    }).format(text);
  }
  function percent(data, hundredths) {
    return numberFormat(data, "%", {
      style: "percent", signDisplay: "exceptZero", minimumFractionDigits: 2, maximumFractionDigits: 2
    }).format(hundredths / 10000);
  }
  // "22 nov", or "Nov 22" where the locale writes the month first (data.monthFirst: en_US).
  function shortDay(day, months, monthFirst) {
    var parts = day.split("-"), month = months[Number(parts[1]) - 1];
    if (parts.length !== 3 || !month) return day;
    return monthFirst ? month + " " + Number(parts[2]) : Number(parts[2]) + " " + month;
  }
  function svgNode(parent, name, attributes, text) {
    var node = document.createElementNS("http://www.w3.org/2000/svg", name);
    Object.keys(attributes).forEach(function (key) { node.setAttribute(key, attributes[key]); });
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }
  // Every chart of the page is laid out here alone: the price charts (the cards', the holdings'
  // and a detail's) and the comparison (compareChart). A price chart keeps every label in a right
  // margin the line never enters, stacked a line apart, a limit far beyond the prices marked at
  // the edge instead of squeezing the line, dates thinned to fit.
  // A label's width in ems, character by character: DejaVu Sans's widths, rounded up.
  function textWidth(text, em) {
    var sum = 0;
    for (var i = 0; i < text.length; i++) {
      var c = text.charAt(i), ems = 0.84;
      if (c >= "0" && c <= "9") ems = 0.64;
      else if (" \u00a0\u202f,.':".indexOf(c) >= 0) ems = 0.32;
      else if ("ijlrtfI|".indexOf(c) >= 0) ems = 0.45;
      else if ("mwMW%".indexOf(c) >= 0) ems = 1.0;
      else if (c >= "A" && c <= "Z") ems = 0.75;
      else if ((c >= "a" && c <= "z") || "åäöé".indexOf(c) >= 0) ems = 0.64;
      sum += ems * em;
    }
    return sum;
  }
  // Stacked labels a visible gap apart; the lowest clear of the date row.
  var labelGap = 1.35;
  function labelBottom(height, em) { return height - 3 - em * 1.6 - 2; }
  function scale(low, high, limits) {
    var span = high - low, reach = span > 0 ? span : Math.max(Math.abs(high) * 0.05, 1e-9);
    var onScale = limits.map(function (v) { return v >= low - reach && v <= high + reach; });
    limits.forEach(function (v, i) { if (onScale[i]) { low = Math.min(low, v); high = Math.max(high, v); } });
    return { low: low, high: high, onScale: onScale };
  }
  function stack(wanted, gap, top, bottom) {
    var fitting = Math.min(wanted.length, Math.floor(Math.max(0, bottom - top) / gap) + 1), order = [];
    for (var i = 0; i < fitting; i++) order.push(i);
    order.sort(function (a, b) { return wanted[a] !== wanted[b] ? wanted[a] - wanted[b] : a - b; });
    var placed = order.map(function (i) { return Math.min(Math.max(wanted[i], top), bottom); });
    for (i = 1; i < placed.length; i++) placed[i] = Math.max(placed[i], placed[i - 1] + gap);
    if (placed.length) placed[placed.length - 1] = Math.min(placed[placed.length - 1], bottom);
    for (i = placed.length - 2; i >= 0; i--) placed[i] = Math.min(placed[i], placed[i + 1] - gap);
    var result = wanted.map(function () { return null; });
    order.forEach(function (index, position) { result[index] = placed[position]; });
    return result;
  }
  // Drawn at the box's own width, a unit a pixel: a fixed 420 wide, scaled to the box, gave
  // 8 px labels on a phone and 16 px ones on a desktop.
  function chart(data, points, limits, label, boxWidth) {
    var width = Math.round(Math.min(620, Math.max(250, boxWidth))), height = Math.round(Math.min(200, Math.max(150, width * 0.42))), em = 12;
    var values = points.map(function (p) { return p.value; });
    var dataLow = Math.min.apply(null, values), dataHigh = Math.max.apply(null, values);
    var lowPoint = points[values.indexOf(dataLow)], highPoint = points[values.indexOf(dataHigh)];
    var range = scale(dataLow, dataHigh, limits.map(function (l) { return l.v; }));
    var top = em * 0.6, bottom = height - em * 1.7, span = range.high - range.low;
    function y(v) { return bottom - (span > 0 ? (v - range.low) / span : 0.5) * (bottom - top); }
    // The margin's labels, in the order they are kept when not all fit: high, low, limits. A
    // limit is named with its direction's word when that margin still leaves the line most of
    // the width, with a glyph and its figure otherwise (a card's narrow chart).
    var labels = [{ text: money(data, highPoint.price), wanted: y(dataHigh) }];
    if (dataLow !== dataHigh) labels.push({ text: money(data, lowPoint.price), wanted: y(dataLow) });
    var worded = Math.max.apply(null, [0].concat(limits.map(function (l) { return textWidth(l.t, em) + 6; })));
    limits.forEach(function (limit, i) {
      var above = limit.v > range.high, text = worded <= width * 0.45 ? limit.t : limit.g || limit.t;
      labels.push(range.onScale[i] ? { text: text, wanted: y(limit.v), cls: "limit " + limit.d }
        : { text: (above ? "\u2191 " : "\u2193 ") + text, wanted: above ? top : bottom, cls: "limit " + limit.d });
    });
    var placed = stack(labels.map(function (l) { return l.wanted; }), em * labelGap, em * 0.5, labelBottom(height, em));
    var shown = labels.filter(function (l, i) { l.y = placed[i]; return placed[i] !== null; });
    // A right margin as wide as the longest label, a bottom one for the dates.
    var labelWidth = Math.max.apply(null, shown.map(function (l) { return textWidth(l.text, em); })) + 6;
    var left = 2, right = width - labelWidth;
    function x(i) { return Math.round(left + i / (points.length - 1) * (right - left)); }
    var first = points[0].value, last = points[points.length - 1].value;
    var svg = svgNode(null, "svg", {
      "class": "chart-svg " + (last > first ? "up" : last < first ? "down" : "flat"), viewBox: "0 0 " + width + " " + height,
      "font-size": em, role: "img", "aria-label": label
    });
    (dataLow === dataHigh ? [dataHigh] : [dataHigh, dataLow]).forEach(function (v) {
      var lineY = Math.round(y(v));
      svgNode(svg, "line", { "class": "grid", x1: left, x2: Math.round(right), y1: lineY, y2: lineY });
    });
    limits.forEach(function (limit, i) {
      if (!range.onScale[i]) return;
      var lineY = Math.round(y(limit.v));
      svgNode(svg, "line", { "class": "limit " + limit.d, x1: left, x2: Math.round(right), y1: lineY, y2: lineY });
    });
    shown.forEach(function (l) {
      var attributes = { x: Math.round(right + 4), y: Math.round(l.y + em * 0.35) };
      if (l.cls) attributes["class"] = l.cls;
      svgNode(svg, "text", attributes, l.text);
    });
    svgNode(svg, "polyline", {
      fill: "none", stroke: "currentColor", "stroke-width": "1.6", "stroke-linejoin": "round",
      points: points.map(function (p, i) { return x(i) + "," + Math.round(y(p.value)); }).join(" ")
    });
    // The first, middle and last days under the plot, as many as fit: the middle goes first.
    var months = data.months || [], middle = points.length >> 1, end = points.length - 1;
    var firstDay = shortDay(points[0].day, months, data.monthFirst), lastDay = shortDay(points[end].day, months, data.monthFirst);
    var middleDay = points.length > 4 ? shortDay(points[middle].day, months, data.monthFirst) : null;
    function dayWidth(text) { return textWidth(text, em); }
    var gap = em * 0.5, showFirst = left + dayWidth(firstDay) + gap <= right - dayWidth(lastDay);
    var showMiddle = showFirst && middleDay !== null && x(middle) - dayWidth(middleDay) / 2 >= left + dayWidth(firstDay) + gap
      && x(middle) + dayWidth(middleDay) / 2 <= right - dayWidth(lastDay) - gap;
    var ticks = (showFirst ? [[0, "start", firstDay]] : []).concat(showMiddle ? [[middle, "middle", middleDay]] : [], [[end, "end", lastDay]]);
    ticks.forEach(function (t) {
      svgNode(svg, "text", { "class": "day", x: x(t[0]), y: height - 3, "text-anchor": t[1] }, t[2]);
    });
    // A limit crossed inside the window: a dot on the first day past it, named in its title.
    limits.forEach(function (limit, li) {
      if (!range.onScale[li]) return;
      for (var i = 1; i < points.length; i++) {
        var before = points[i - 1].value - limit.v, after = points[i].value - limit.v;
        if (before === 0 || (after !== 0 && (before < 0) === (after < 0))) continue;
        var dot = svgNode(svg, "circle", { "class": "cross " + limit.d, cx: x(i), cy: Math.round(y(points[i].value)), r: 4 });
        svgNode(dot, "title", {}, limit.t + " · " + shortDay(points[i].day, months, data.monthFirst));
      }
    });
    // The chosen day's marker (`pick`), and the day nearest a pointer's x (`nearest`).
    var marker = svgNode(svg, "circle", { "class": "pick", r: 5, cx: x(end), cy: Math.round(y(last)) });
    svg.pick = function (i) {
      marker.setAttribute("cx", x(i));
      marker.setAttribute("cy", Math.round(y(points[i].value)));
    };
    svg.nearest = function (clientX) {
      var rect = svg.getBoundingClientRect(), at = (clientX - rect.left) / rect.width * width;
      return Math.max(0, Math.min(end, Math.round((at - left) / (right - left) * end)));
    };
    return svg;
  }
  // The comparison: markets rebased to 100 on their first day, so that a reader sees which moved
  // most whatever their prices. As wide as its card at any width: its text and heights in pixels,
  // its lines in a stretched box (strokes kept even), its dates placed in percent of the width;
  // the stylesheet leaves a right margin for the "100" (.chart-svg.compare).
  function compareChart(data, ids, label) {
    var height = 240, em = 12, seen = {};
    var series = ids.map(function (id) { return chartPoints(data.days, (data.m[id] || [""])[0]); })
      .filter(function (points) { return points.length > 1 && points[0].value > 0; });
    series.forEach(function (points) { points.forEach(function (p) { seen[p.day] = true; }); });
    var days = Object.keys(seen).sort(), at = {};
    if (days.length < 2 || series.length < 2) return null;
    days.forEach(function (day, i) { at[day] = i; });
    var lines = series.map(function (points) {
      return points.map(function (p) { return [at[p.day], p.value / points[0].value * 100]; });
    });
    var all = [100];
    lines.forEach(function (line) { line.forEach(function (p) { all.push(p[1]); }); });
    var low = Math.min.apply(null, all), high = Math.max.apply(null, all), span = high - low;
    var top = em * 0.6, bottom = height - em * 1.7;
    function x(day) { return day / (days.length - 1) * 1000; }
    function y(v) { return bottom - (span > 0 ? (v - low) / span : 0.5) * (bottom - top); }
    var svg = svgNode(null, "svg", { "class": "chart-svg compare", width: "100%", height: height, "font-size": em, role: "img", "aria-label": label });
    var base = Math.round(y(100));
    svgNode(svg, "line", { "class": "grid", x1: 0, x2: "100%", y1: base, y2: base });
    svgNode(svg, "text", { x: "100%", dx: 4, y: Math.round(y(100) + em * 0.35) }, "100");
    var plot = svgNode(svg, "svg", { width: "100%", height: height, viewBox: "0 0 1000 " + height, preserveAspectRatio: "none" });
    lines.forEach(function (line, i) {
      svgNode(plot, "polyline", {
        "class": "s" + i, fill: "none", "stroke-width": "1.8", "stroke-linejoin": "round", "vector-effect": "non-scaling-stroke",
        points: line.map(function (p) { return Math.round(x(p[0])) + "," + Math.round(y(p[1])); }).join(" ")
      });
    });
    // The first, middle and last days; the middle only when it is another day well apart.
    var months = data.months || [], middle = days.length >> 1, end = days.length - 1;
    (days.length > 4 ? [[0, "start"], [middle, "middle"], [end, "end"]] : [[0, "start"], [end, "end"]]).forEach(function (t) {
      svgNode(svg, "text", { "class": "day", x: +(x(t[0]) / 10).toFixed(1) + "%", y: height - 3, "text-anchor": t[1] },
        shortDay(days[t[0]], months, data.monthFirst));
    });
    return svg;
  }
  // "22 nov 2022", or "Nov 22, 2022" where the locale writes the month first: the chart's days,
  // with their year, so that the axis and the list of days read alike.
  function longDay(day, months, monthFirst) {
    var short = shortDay(day, months, monthFirst);
    return short === day ? day : short + (monthFirst ? ", " : " ") + day.slice(0, 4);
  }
  // The cards' charts, the holdings' value by day and the comparison, at their box's width, in the currency of
  // their part of the page (`data-cur`): a market's points from the history data, the holdings'
  // from the box itself. Both currencies' at once, a hidden box at the width of the shown one of
  // the same market (the two parts are laid out alike), so that a switch draws nothing. Drawn
  // again when the width changes.
  // A series' days with its prices (and changes), as the history data writes them: one token a
  // day, "-" for none.
  function chartPoints(days, prices, changes) {
    var price = prices.split(" "), change = changes ? changes.split(" ") : [], points = [];
    days.forEach(function (day, i) {
      if (price[i] && price[i] !== "-") points.push({ day: day, price: price[i], value: Number(price[i]), change: change[i] });
    });
    return points;
  }
  function drawCharts() {
    var boxes = Array.prototype.slice.call(document.querySelectorAll(".chart-box")), widths = {};
    function key(box) { return box.getAttribute("data-market") || "holdings"; }
    boxes.forEach(function (box) { if (box.clientWidth) widths[key(box)] = box.clientWidth; });
    boxes.forEach(function (box) {
      var data = histories[box.getAttribute("data-cur") || "0"], width = box.clientWidth || widths[key(box)], market = box.getAttribute("data-market");
      if (!data || !width || box.getAttribute("data-width") === String(width)) return;
      var points = market ? chartPoints(data.days, (data.m[market] || [""])[0])
        : chartPoints((box.getAttribute("data-days") || "").split(" "), box.getAttribute("data-values") || "");
      if (points.length < 2) return;
      box.textContent = "";
      box.appendChild(chart(data, points, market ? data.l[market] || [] : [], box.getAttribute("data-label") || "", width));
      box.setAttribute("data-width", String(width));
    });
    // The comparison, once for each currency: it stretches with its card.
    Array.prototype.forEach.call(document.querySelectorAll(".compare-box:not([data-drawn])"), function (box) {
      var data = histories[box.getAttribute("data-cur") || "0"];
      var drawn = data && compareChart(data, (box.getAttribute("data-compare") || "").split(" ").filter(Boolean), box.getAttribute("data-label") || "");
      if (!drawn) return;
      box.appendChild(drawn);
      box.setAttribute("data-drawn", "");
    });
  }
  afterLoad(drawCharts);
  window.addEventListener("resize", drawCharts);
  window.addEventListener("beforeprint", drawCharts);
  // A chart the other currency's part had no width for yet, after the frame that shows the switch.
  document.addEventListener("cryptoreport:currency", function () {
    if (!document.querySelector(".chart-box:not([data-width])")) return;
    requestAnimationFrame(function () { setTimeout(drawCharts, 0); });
  });
  function drawDetail(detail) {
    // An address naming no market of the page (a bookmark of a market since left out) draws nothing.
    if (!detail) return;
    var box = detail.classList.contains("detail") && detail.querySelector(".history");
    var index = document.documentElement.getAttribute("data-cur") || "0", data = histories[index];
    var series = data && data.m[detail.id], template = document.getElementById("points-table");
    // No width yet while the page loads: the fragment's :target applies once it is parsed (load).
    var width = box && box.clientWidth, range = (box && box.getAttribute("data-range")) || "all";
    if (!box || !width || !series || !template || (box.getAttribute("data-drawn") === index && box.getAttribute("data-width") === String(width)
      && box.getAttribute("data-drawn-range") === range)) return;
    var all = chartPoints(data.days, series[0], series[1]);
    if (all.length < 2) return;
    // 7 d and 30 d by the calendar (a day missing from the history is no day less), each offered
    // when the history reaches further back than that; all of it.
    function since(days) {
      var newest = Date.parse(all[all.length - 1].day + "T00:00:00Z");
      return new Date(newest - days * 86400000).toISOString().slice(0, 10);
    }
    var ranges = [["7", say("change7d")], ["30", say("change30d")]].filter(function (r) { return all[0].day < since(Number(r[0])); });
    if (range !== "all" && !ranges.some(function (r) { return r[0] === range; })) range = "all";
    var points = range === "all" ? all : all.filter(function (p) { return p.day >= since(Number(range)); });
    var heading = detail.querySelector(".history").previousElementSibling;
    var months = data.months || [];
    box.textContent = "";
    if (ranges.length) {
      var group = document.createElement("div");
      group.className = "ranges";
      group.setAttribute("role", "group");
      group.setAttribute("aria-label", say("scriptRange"));
      ranges.concat([["all", say("scriptRangeAll")]]).forEach(function (r) {
        var button = document.createElement("button");
        button.type = "button";
        button.textContent = r[1];
        button.setAttribute("aria-pressed", String(r[0] === range));
        button.addEventListener("click", function () {
          box.setAttribute("data-range", r[0]);
          drawDetail(detail);
          // Drawn anew: the focus stays on the range chosen, not lost to the page.
          var pressed = box.querySelector(".ranges [aria-pressed='true']");
          if (pressed) pressed.focus();
        });
        group.appendChild(button);
      });
      box.appendChild(group);
    }
    // The chosen day's highlights: its value, and the change to it over the range drawn.
    var line = document.createElement("p");
    line.className = "pick-line";
    box.appendChild(line);
    var svg = chart(data, points, data.l[detail.id] || [], detail.getAttribute("aria-label") + ", " + (heading ? heading.textContent.toLowerCase() : ""), width);
    box.appendChild(svg);
    var earlier = detail.querySelector(".earlier") || box;
    earlier.textContent = "";
    earlier.appendChild(template.content.cloneNode(true));
    var body = earlier.querySelector("tbody"), rows = [];
    function choose(i, focus) {
      var point = points[i], first = points[0], digits = point.price.indexOf(".") < 0 ? 0 : point.price.length - point.price.indexOf(".") - 1;
      var moved = point.value - first.value, pct = first.value ? moved / first.value * 100 : 0;
      var arrow = moved > 0 ? "\u25b2 " : moved < 0 ? "\u25bc " : "";
      line.textContent = "";
      var day = document.createElement("span");
      day.textContent = longDay(point.day, months, data.monthFirst) + " ";
      var value = document.createElement("strong");
      value.textContent = money(data, point.price);
      var change = document.createElement("span");
      change.className = moved > 0 ? "up" : moved < 0 ? "down" : "flat";
      change.textContent = i === 0 ? "" : " " + arrow + percent(data, pct * 100) + " (" + (moved > 0 ? "+" : "") + money(data, moved.toFixed(digits)) + ") "
        + say("scriptSince", shortDay(first.day, months, data.monthFirst));
      line.appendChild(day);
      line.appendChild(value);
      line.appendChild(change);
      svg.pick(i);
      // The chosen day's row is the list's one Tab stop.
      rows.forEach(function (row, r) { row.setAttribute("aria-selected", String(r === i)); row.tabIndex = r === i ? 0 : -1; });
      if (focus) rows[i].focus();
    }
    for (var i = points.length - 1; i >= 0; i--) {
      var row = body.insertRow(), change = points[i].change === "-" ? null : Number(points[i].change);
      rows[i] = row;
      row.tabIndex = -1;
      // The day heads its row (read out before each figure), on one line on a phone.
      var day = document.createElement("th");
      day.scope = "row";
      day.textContent = longDay(points[i].day, months, data.monthFirst);
      row.appendChild(day);
      row.insertCell().textContent = money(data, points[i].price);
      var cell = row.insertCell();
      cell.className = change === null ? "flat" : change > 0 ? "up" : change < 0 ? "down" : "flat";
      if (change !== null) cell.textContent = percent(data, change);
      row.addEventListener("click", choose.bind(null, i, false));
    }
    // The list is one stop for Tab: the chosen day's row; the arrows move the choice.
    body.addEventListener("keydown", function (event) {
      var at = rows.indexOf(event.target), next = event.key === "ArrowDown" ? at - 1 : event.key === "ArrowUp" ? at + 1 : -2;
      if (at < 0 || next < 0 || next >= rows.length) return;
      event.preventDefault();
      choose(next, true);
    });
    // Hovering or touching the chart shows that day.
    svg.addEventListener("pointermove", function (event) { choose(svg.nearest(event.clientX), false); });
    svg.addEventListener("pointerdown", function (event) { choose(svg.nearest(event.clientX), false); });
    choose(points.length - 1, false);
    box.setAttribute("data-drawn", index);
    box.setAttribute("data-width", String(width));
    box.setAttribute("data-drawn-range", range);
  }
  function drawTarget() {
    var id = location.hash.slice(1);
    if (id && id.indexOf("=") < 0) drawDetail(document.getElementById(id));
  }
  // An opened detail takes keyboard focus, so that Tab and a screen reader are in the dialog,
  // not on the page behind it: the dialog itself, whose box scrolls, so that the arrows, Page
  // Down and Space scroll it (with its close button focused they scrolled the page behind on a
  // desktop); Tab goes on to the close button.
  var lastShown = null;
  function focusTarget() {
    var detail = document.querySelector(".detail:target");
    if (detail) lastShown = detail.id;
    if (!detail || detail.contains(document.activeElement)) return;
    detail.tabIndex = -1;
    detail.focus({ preventScroll: true });
  }
  // A detail opens at its top, with its name, price and close button: its box keeps the scroll
  // of its last opening otherwise (found closed with Escape at its oldest points).
  function openAtTop() {
    var detail = document.querySelector(".detail:target");
    if (detail) detail.scrollTop = 0;
  }
  // A phone turned sideways: the open chart is drawn again at its new width.
  window.addEventListener("resize", drawTarget);
  window.addEventListener("load", drawTarget);
  window.addEventListener("hashchange", openAtTop);
  window.addEventListener("hashchange", drawTarget);
  window.addEventListener("hashchange", focusTarget);
  // Opened from its address: the script may run before :target matches (a desktop Chromium).
  window.addEventListener("load", focusTarget);
  focusTarget();
  document.addEventListener("cryptoreport:currency", drawTarget);
  drawTarget();

  if (!table) return;
  var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
  var keys = ["p", "c", "s", "w", "m", "t", "h", "l", "b", "a", "q", "r", "v", "x"];
  rows.forEach(function (row, index) {
    var values = (row.getAttribute("data-v") || "").split(" "), figures = {};
    keys.forEach(function (key, i) { var n = parseFloat(values[i]); figures[key] = isFinite(n) ? n : null; });
    row.figures = figures;
    row.order = index;
    row.words = (row.getAttribute("data-q") || "").toLowerCase().split(" ");
    // The asset's name (Bitcoin), found by the start of any of its words: "bit" finds it, "eth"
    // finds Ethereum but not Tether.
    var name = row.querySelector(".asset-name");
    row.nameWords = name ? name.textContent.toLowerCase().split(/\s+/).filter(Boolean) : [];
  });
  var search = document.getElementById("search"), shown = document.getElementById("shown");
  var noMatch = document.getElementById("no-match");

  function filter() {
    finishRows();
    // A name as the page writes it ("BTC/USDT") is its words: a slash parts them as a space does.
    var terms = view.q.toLowerCase().split(/[\s\/]+/).filter(Boolean), count = 0, onScreen = rowsOnScreen(), changed = false;
    rows.forEach(function (row) {
      var match = terms.every(function (term) {
        return row.words.some(function (word) { return word.indexOf(term) >= 0; })
          || row.nameWords.some(function (word) { return word.indexOf(term) === 0; });
      });
      if (row.hidden === match) { row.hidden = !match; changed = true; }
      if (match) count++;
    });
    if (changed) showRows(Array.prototype.slice.call(body.rows), onScreen);
    shown.textContent = terms.length ? say("scriptShownOf", count, rows.length) : say("scriptShown", rows.length);
    noMatch.hidden = count > 0;
  }

  var buttons = [];
  function sort() {
    var key = view.sort, up = view.dir === "asc";
    var ordered = rows.slice();
    if (key === "n") {
      ordered.sort(function (x, y) {
        var a = x.getAttribute("data-n"), b = y.getAttribute("data-n");
        return (up ? a.localeCompare(b) : b.localeCompare(a)) || x.order - y.order;
      });
    } else if (keys.indexOf(key) >= 0) {
      ordered.sort(function (x, y) {
        var a = x.figures[key], b = y.figures[key];
        if (a === null || b === null) return (a === null) - (b === null) || x.order - y.order;
        return (up ? a - b : b - a) || x.order - y.order;
      });
    }
    // Rows already in this order stay where they are (the page's first view): a moved row is
    // styled anew, with everything in it.
    finishRows();
    var current = body.rows, same = current.length === ordered.length;
    for (var i = 0; same && i < ordered.length; i++) same = current[i] === ordered[i];
    if (!same) showRows(ordered, rowsOnScreen());
    buttons.forEach(function (button) {
      var active = button.getAttribute("data-k") === key;
      button.className = "sort" + (active ? (up ? " asc" : " desc") : "");
      var cell = button.closest("th");
      if (active) cell.setAttribute("aria-sort", up ? "ascending" : "descending");
      else if (!cell.querySelector(".sort.asc, .sort.desc")) cell.removeAttribute("aria-sort");
    });
  }

  // Every header becomes a button: a first click orders names A–Z and figures largest first,
  // a second reverses; empty figures stay last either way.
  Array.prototype.forEach.call(table.tHead.querySelectorAll("[data-k]"), function (label) {
    // A span acting as a button: Chromium leaves real buttons out of a printed header.
    var button = document.createElement("span");
    button.setAttribute("role", "button");
    button.tabIndex = 0;
    button.setAttribute("data-k", label.getAttribute("data-k"));
    button.textContent = label.textContent;
    // A header that explains itself (the trend columns: since when, over how long) keeps saying so.
    var explained = label.getAttribute("title");
    button.title = (explained ? explained + ". " : "") + say("scriptSortBy", label.textContent.toLowerCase());
    label.textContent = "";
    label.appendChild(button);
    buttons.push(button);
    function choose() {
      var key = button.getAttribute("data-k");
      if (view.sort === key) view.dir = view.dir === "asc" ? "desc" : "asc";
      else { view.sort = key; view.dir = key === "n" ? "asc" : "desc"; }
      sort();
      writeFragment();
    }
    // A header holding one figure sorts wherever it is clicked, not only on its words.
    (label.tagName === "TH" ? label : button).addEventListener("click", choose);
    if (label.tagName === "TH") label.style.cursor = "pointer";
    button.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); choose(); }
    });
  });

  search.addEventListener("input", function () { view.q = search.value; filter(); writeFragment(); });
  // The skip link lands in the search box, the table's first control, keeping the address's view.
  var skip = document.querySelector(".skip");
  if (skip) skip.addEventListener("click", function (event) { event.preventDefault(); search.focus(); });
  // Columns to hide, by their header's text, remembered on this computer.
  var storageKey = "cryptoreport.hiddenColumns", hidden = [];
  try { hidden = JSON.parse(localStorage.getItem(storageKey) || "[]") || []; } catch (e) { hidden = []; }
  var headers = Array.prototype.slice.call(table.tHead.rows[0].cells, 1);
  var style = document.createElement("style"), choice = document.getElementById("column-choice");
  document.head.appendChild(style);
  function applyColumns() {
    var text = headers.map(function (cell, i) {
      return hidden.indexOf(cell.textContent.trim()) >= 0 ? "table.markets tr > :nth-child(" + (i + 2) + ") { display: none; }\n" : "";
    }).join("");
    // A style sheet written again restyles the whole page, even unchanged.
    if (style.textContent !== text) style.textContent = text;
  }
  headers.forEach(function (cell) {
    var name = cell.textContent.trim(), box = document.createElement("input"), label = document.createElement("label");
    // A header of two figures reads as two names ("Spread % / Spread"), not one run together.
    var parts = Array.prototype.map.call(cell.querySelectorAll(":scope > span"), function (part) { return part.textContent.trim(); });
    box.type = "checkbox";
    box.checked = hidden.indexOf(name) < 0;
    box.addEventListener("change", function () {
      hidden = hidden.filter(function (h) { return h !== name; });
      if (!box.checked) hidden.push(name);
      try { localStorage.setItem(storageKey, JSON.stringify(hidden)); } catch (e) { /* private mode: this page only */ }
      applyColumns();
    });
    label.appendChild(box);
    label.appendChild(document.createTextNode(" " + (parts.length > 1 ? parts.join(" / ") : name)));
    choice.appendChild(label);
  });

  // A detail closes with Escape, its close button or a click on the dimmed page around it.
  // Closing puts the view's fragment back and the reader where they were when it opened (the
  // row's own fragment would scroll the row under the sticky header), keyboard focus back on the
  // link that opened it (a row's or a chart card's; the row's when it was opened by an address).
  var opened = null;
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[href^='#']");
    var detail = link && buildDetail(link.getAttribute("href").slice(1));
    if (!detail || !detail.classList.contains("detail") || document.querySelector(".detail:target")) return;
    var wrap = table.closest(".table-wrap");
    opened = { x: window.scrollX, y: window.scrollY, wrapTop: wrap ? wrap.scrollTop : 0, opener: link };
  }, true);
  // A tap anywhere on a row opens its detail, as a phone's list does (the name alone was a
  // 77 × 16 px target). A touch only: a mouse double-clicks a figure to copy it, and its
  // first click would open the detail.
  var pointer = "";
  body.addEventListener("pointerdown", function (event) { pointer = event.pointerType; });
  body.addEventListener("click", function (event) {
    if (pointer !== "touch" && pointer !== "pen") return;
    if (event.target.closest("a, button, input, select, [role=button]") || String(window.getSelection())) return;
    var row = event.target.closest("tr"), link = row && row.querySelector(".pair a");
    if (link) link.click();
  });
  function rowInView(row) {
    var head = table.tHead.getBoundingClientRect(), box = row.getBoundingClientRect();
    if (box.top < Math.max(head.bottom, 0) || box.bottom > window.innerHeight) row.scrollIntoView({ block: "center" });
  }
  function closeDetail(detail) {
    var row = rowFor(detail.id), back = opened;
    var link = back && back.opener.isConnected ? back.opener : row && row.querySelector(".pair a");
    var wrap = table.closest(".table-wrap");
    opened = null;
    lastShown = null;
    // Its next opening starts at its top (`openAtTop` comes only after the browser drew it).
    detail.scrollTop = 0;
    location.replace("#" + fragment());
    if (!fragment()) try { history.replaceState(null, "", location.href.split("#")[0]); } catch (e) { /* "#" stays */ }
    if (back) {
      window.scrollTo(back.x, back.y);
      if (wrap) wrap.scrollTop = back.wrapTop;
    }
    if (row && !row.hidden && (!back || row.contains(link))) rowInView(row);
    if (link) link.focus({ preventScroll: true });
  }
  // Closed by the browser's Back (the address's change, not closeDetail): the focus goes back
  // to the link that opened it too, not to the top of the page.
  window.addEventListener("hashchange", function () {
    if (!lastShown || document.querySelector(".detail:target")) return;
    var row = rowFor(lastShown);
    var link = opened && opened.opener.isConnected ? opened.opener : row && row.querySelector(".pair a");
    lastShown = null;
    opened = null;
    if (link) link.focus({ preventScroll: true });
  });
  wireDetail = function (detail) {
    detail.addEventListener("click", function (event) {
      if (event.target === detail || event.target.closest(".close")) { event.preventDefault(); closeDetail(detail); }
    });
    // Swiped down from its top on a touch screen, a detail closes, as a phone's sheet does.
    var start = null;
    detail.addEventListener("touchstart", function (event) {
      start = detail.scrollTop <= 0 && event.touches.length === 1 ? { x: event.touches[0].clientX, y: event.touches[0].clientY } : null;
    }, { passive: true });
    detail.addEventListener("touchend", function (event) {
      var touch = event.changedTouches[0], from = start;
      start = null;
      if (!from || !touch) return;
      var down = touch.clientY - from.y, across = Math.abs(touch.clientX - from.x);
      if (down > 90 && across < down / 2) closeDetail(detail);
    });
  };
  Array.prototype.forEach.call(document.querySelectorAll("section.detail"), wireDetail);
  document.addEventListener("keydown", function (event) {
    var open = document.querySelector(".detail:target");
    if (event.key === "Escape" && open) closeDetail(open);
    // Tab stays in an open detail: the page behind is dimmed, not there to be reached.
    if (event.key === "Tab" && open) {
      var stops = Array.prototype.filter.call(open.querySelectorAll("a[href], button, input, select, [tabindex]"), function (e) { return e.tabIndex >= 0; });
      // From the dialog itself (as it opens), Tab goes to its first stop and Shift+Tab to its last.
      var at = stops.indexOf(document.activeElement);
      var next = at < 0 ? (event.shiftKey ? stops.length - 1 : 0) : (at + (event.shiftKey ? -1 : 1) + stops.length) % stops.length;
      if (stops.length && (at < 0 || (event.shiftKey ? at === 0 : at === stops.length - 1))) { event.preventDefault(); stops[next].focus(); }
    }
  });

  function restore() {
    readFragment();
    search.value = view.q;
    filter();
    sort();
    applied = tableState();
  }
  window.addEventListener("hashchange", function () {
    if (location.hash.indexOf("=") >= 0 && (readFragment(), tableState()) !== applied) restore();
  });
  applyColumns();
  restore();
  document.getElementById("tools").hidden = false;
})();
