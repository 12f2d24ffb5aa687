/// The page's script: plain JavaScript, no library. Tabs, details, the Add account form, removal, a wallet's Next
/// address, and the live event stream (`/api/events/stream`), on which the panels are loaded again from the server.
enum WebScript {
    static let source = #"""
        "use strict";
        const $ = (id) => document.getElementById(id);
        // Balances answered by a successful add, shown until the daemon's own first poll of the address.
        const added = {};
        let openBlock = null;
        let openAccount = null;
        let openWallet = null;
        let openRequest = null;

        function showTab(name) {
          for (const tab of document.querySelectorAll("nav [data-tab]")) {
            const selected = tab.dataset.tab === name;
            tab.setAttribute("aria-selected", selected ? "true" : "false");
            $("panel-" + tab.dataset.tab).hidden = !selected;
          }
          if (location.hash !== "#" + name) history.replaceState(null, "", "#" + name);
          if (name === "prices") load("prices-list");
          if (name === "wallets") load("wallets-list");
          if (name === "requests") load("requests-list");
          if (name === "events") loadEvents();
        }

        async function fetchText(url) {
          const response = await fetch(url, { cache: "no-store" });
          return response.text();
        }

        async function load(id, url) {
          const element = $(id);
          element.innerHTML = await fetchText(url || element.dataset.src);
          if (id === "accounts-list") fillAdded();
          markSelected();
        }

        function loadEvents() {
          const type = $("event-type").value;
          return load("events-list", "/ui/events" + (type ? "?type=" + encodeURIComponent(type) : ""));
        }

        function fillAdded() {
          for (const row of document.querySelectorAll("tr.account-row")) {
            const known = added[row.dataset.address];
            const cell = row.querySelector("td.balance[data-pending]");
            if (known && cell && known.balanceBtc) cell.textContent = known.balanceBtc;
          }
        }

        function markSelected() {
          for (const row of document.querySelectorAll("tr.block-row")) {
            row.classList.toggle("selected", row.dataset.block === openBlock);
          }
          for (const row of document.querySelectorAll("tr.account-row")) {
            row.classList.toggle("selected", row.dataset.address === openAccount);
          }
          for (const row of document.querySelectorAll("tr.wallet-row")) {
            row.classList.toggle("selected", row.dataset.wallet === openWallet);
          }
          for (const row of document.querySelectorAll("tr.request-row")) {
            row.classList.toggle("selected", row.dataset.request === openRequest);
          }
        }

        async function showBlock(id) {
          openBlock = String(id);
          const details = $("block-details");
          details.hidden = false;
          details.innerHTML = '<p class="muted">Loading…</p>';
          details.innerHTML = await fetchText("/ui/blocks/" + encodeURIComponent(id));
          markSelected();
        }

        async function showAccount(address) {
          openAccount = address;
          const details = $("account-details");
          details.hidden = false;
          details.innerHTML = await fetchText("/ui/accounts/" + encodeURIComponent(address));
          markSelected();
        }

        async function showRequest(id) {
          openRequest = id;
          const details = $("request-details");
          details.hidden = false;
          details.innerHTML = await fetchText("/ui/requests/" + encodeURIComponent(id));
          markSelected();
        }

        // The last address handed out, shown again when the details are loaded anew.
        let handedOut = null;

        async function showWallet(id) {
          openWallet = id;
          const details = $("wallet-details");
          details.hidden = false;
          details.innerHTML = await fetchText("/ui/wallets/" + encodeURIComponent(id));
          if (handedOut && handedOut.wallet === id) showHandedOut(handedOut);
          markSelected();
        }

        function showHandedOut(answer) {
          const result = $("next-result");
          if (!result) return;
          result.textContent = "";
          const code = document.createElement("code");
          code.id = "next-address-text";
          code.textContent = answer.address;
          const index = document.createElement("span");
          index.className = "muted";
          index.textContent = " receive " + answer.index + " · " + answer.uri;
          result.append(code, index);
          result.hidden = false;
        }

        async function nextAddress(id) {
          const error = $("next-error");
          error.hidden = true;
          const label = $("next-label") ? $("next-label").value.trim() : "";
          try {
            const { ok, answer } = await write("POST", "/api/wallets/" + encodeURIComponent(id) + "/next",
              JSON.stringify(label ? { label } : {}));
            if (!ok) {
              error.textContent = answer.error || "No address could be handed out.";
              error.hidden = false;
              return;
            }
            handedOut = answer;
            await Promise.allSettled([showWallet(id), load("wallets-list")]);
          } catch (e) {
            error.textContent = "The watcher could not be reached.";
            error.hidden = false;
          }
        }

        function writeHeaders() {
          const headers = { "Content-Type": "application/json" };
          const token = sessionStorage.getItem("watcher-token");
          if (token) headers["Authorization"] = "Bearer " + token;
          return headers;
        }

        // A write; asks once for the --http-token when the server wants one.
        async function write(method, url, body) {
          let response = await fetch(url, { method, headers: writeHeaders(), body });
          if (response.status === 401) {
            const token = window.prompt("This watcher needs its --http-token for changes:");
            if (token) {
              sessionStorage.setItem("watcher-token", token);
              response = await fetch(url, { method, headers: writeHeaders(), body });
            }
          }
          let answer = {};
          try { answer = await response.json(); } catch (e) { answer = {}; }
          return { ok: response.ok, answer };
        }

        function setAddError(text) {
          $("add-error").textContent = text || "";
          $("add-error").hidden = !text;
        }

        async function addAccount(event) {
          event.preventDefault();
          const address = $("add-address").value.trim();
          if (!address) return setAddError("Enter an address or a bitcoin: URI.");
          setAddError("");
          $("add-confirm").disabled = true;
          $("add-status").hidden = false;
          try {
            const body = JSON.stringify({ address, label: $("add-label").value.trim() });
            const { ok, answer } = await write("POST", "/api/accounts", body);
            if (!ok) return setAddError(answer.error || "The account could not be added.");
            added[answer.address] = answer;
            $("add-form").reset();
            $("add-form").hidden = true;
            await load("accounts-list");
          } catch (e) {
            setAddError("The watcher could not be reached.");
          } finally {
            $("add-confirm").disabled = false;
            $("add-status").hidden = true;
          }
        }

        async function removeAccount(address) {
          const { ok, answer } = await write("DELETE", "/api/accounts/" + encodeURIComponent(address));
          if (!ok) return window.alert(answer.error || "The account could not be removed.");
          delete added[address];
          if (openAccount === address) {
            openAccount = null;
            $("account-details").hidden = true;
          }
          await load("accounts-list");
        }

        let pending = null;
        function refreshSoon() {
          if (pending) return;
          pending = setTimeout(async () => {
            pending = null;
            const work = [load("blocks-list"), load("accounts-list")];
            if (!$("panel-prices").hidden) work.push(load("prices-list"));
            if (!$("panel-wallets").hidden) work.push(load("wallets-list"));
            if (openWallet) work.push(showWallet(openWallet));
            if (!$("panel-requests").hidden) work.push(load("requests-list"));
            if (openRequest) work.push(showRequest(openRequest));
            if (!$("panel-events").hidden) work.push(loadEvents());
            if (openAccount) work.push(showAccount(openAccount));
            await Promise.allSettled(work);
          }, 250);
        }

        function follow() {
          const source = new EventSource("/api/events/stream");
          source.onopen = () => { $("live").textContent = "live"; $("live").classList.add("on"); refreshSoon(); };
          source.onmessage = refreshSoon;
          source.onerror = () => { $("live").textContent = "reconnecting"; $("live").classList.remove("on"); };
        }

        document.addEventListener("click", (event) => {
          const target = event.target;
          const tab = target.closest("nav [data-tab]");
          if (tab) return showTab(tab.dataset.tab);
          const remove = target.closest("button.remove");
          if (remove) return removeAccount(remove.dataset.address);
          const block = target.closest("tr.block-row");
          if (block) return showBlock(block.dataset.block);
          const account = target.closest("tr.account-row");
          if (account) return showAccount(account.dataset.address);
          const wallet = target.closest("tr.wallet-row");
          if (wallet) return showWallet(wallet.dataset.wallet);
          const request = target.closest("tr.request-row");
          if (request) return showRequest(request.dataset.request);
          if (target.id === "next-address") return nextAddress(target.dataset.wallet);
          if (target.id === "add-account") {
            $("add-form").hidden = false;
            setAddError("");
            return $("add-address").focus();
          }
          if (target.id === "add-cancel") {
            $("add-form").reset();
            setAddError("");
            $("add-form").hidden = true;
          }
        });

        document.addEventListener("keydown", (event) => {
          if (event.key !== "Enter") return;
          const row = event.target.closest && event.target.closest("tr.block-row, tr.account-row, tr.wallet-row, tr.request-row");
          if (row) row.click();
        });

        document.addEventListener("DOMContentLoaded", () => {
          $("add-form").addEventListener("submit", addAccount);
          $("block-search").addEventListener("submit", (event) => {
            event.preventDefault();
            const id = $("block-id").value.trim();
            if (id) showBlock(id);
          });
          $("event-type").addEventListener("change", loadEvents);
          const start = location.hash.slice(1);
          showTab(["blocks", "accounts", "wallets", "requests", "prices", "events"].includes(start) ? start : "blocks");
          follow();
          // An account the daemon has not polled yet shows "pending": look again until it has.
          setInterval(() => { if (document.querySelector("[data-pending]")) refreshSoon(); }, 2000);
        });

        """#
}
