/// The page at `/`: six tabs (Blocks, Accounts, Wallets, Requests, Prices, Events), the first two filled on the server; the
/// script (``WebScript``) switches tabs, opens details, adds and removes accounts, hands out wallet addresses and
/// follows the event stream.
enum WebPage {
    static func html(blocks: String, accounts: String) -> String {
        let options = WebFragments.eventTypes.map { #"<option value="\#($0)">\#($0)</option>"# }.joined()
        return #"""
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>watcher</title>
            <link rel="stylesheet" href="/ui/app.css">
            <script src="/ui/app.js" defer></script>
            </head>
            <body>
            <header>
            <h1>watcher</h1>
            <nav role="tablist">
            <button type="button" role="tab" id="tab-blocks" data-tab="blocks" aria-selected="true">Blocks</button>
            <button type="button" role="tab" id="tab-accounts" data-tab="accounts">Accounts</button>
            <button type="button" role="tab" id="tab-wallets" data-tab="wallets">Wallets</button>
            <button type="button" role="tab" id="tab-requests" data-tab="requests">Requests</button>
            <button type="button" role="tab" id="tab-prices" data-tab="prices">Prices</button>
            <button type="button" role="tab" id="tab-events" data-tab="events">Events</button>
            </nav>
            <span id="live" class="live" title="Updates arrive without a reload">connecting</span>
            </header>
            <main>
            <section id="panel-blocks" class="panel" role="tabpanel">
            <h2>Blocks</h2>
            <form id="block-search" class="inline">
            <input id="block-id" placeholder="Height or hash" aria-label="Block height or hash">
            <button type="submit">Show block</button>
            </form>
            <div class="columns">
            <div id="blocks-list" data-src="/ui/blocks">\#(blocks)</div>
            <div id="block-details" class="details" hidden></div>
            </div>
            </section>
            <section id="panel-accounts" class="panel" role="tabpanel" hidden>
            <h2>Accounts</h2>
            <button type="button" id="add-account">Add account</button>
            <form id="add-form" class="card" hidden>
            <label>Address <input id="add-address" name="address" placeholder="Address or bitcoin: URI" autocomplete="off" spellcheck="false"></label>
            <label>Label <input id="add-label" name="label" placeholder="Optional"></label>
            <button type="submit" id="add-confirm">Confirm</button>
            <button type="button" id="add-cancel">Cancel</button>
            <p id="add-status" class="muted" hidden>Checking with the providers…</p>
            <p id="add-error" class="error" role="alert" hidden></p>
            </form>
            <div class="columns">
            <div id="accounts-list" data-src="/ui/accounts">\#(accounts)</div>
            <div id="account-details" class="details" hidden></div>
            </div>
            </section>
            <section id="panel-wallets" class="panel" role="tabpanel" hidden>
            <h2>Wallets</h2>
            <div class="columns">
            <div id="wallets-list" data-src="/ui/wallets"></div>
            <div id="wallet-details" class="details" hidden></div>
            </div>
            </section>
            <section id="panel-requests" class="panel" role="tabpanel" hidden>
            <h2>Payment requests</h2>
            <div class="columns">
            <div id="requests-list" data-src="/ui/requests"></div>
            <div id="request-details" class="details" hidden></div>
            </div>
            </section>
            <section id="panel-prices" class="panel" role="tabpanel" hidden>
            <h2>Prices</h2>
            <div id="prices-list" data-src="/ui/prices"></div>
            </section>
            <section id="panel-events" class="panel" role="tabpanel" hidden>
            <h2>Events</h2>
            <label class="inline">Type <select id="event-type"><option value="">all</option>\#(options)</select></label>
            <div id="events-list" data-src="/ui/events"></div>
            </section>
            </main>
            </body>
            </html>

            """#
    }

    static let style = """
        :root { --fg: #1d2330; --muted: #667085; --line: #e4e7ec; --accent: #f7931a; --bg: #fafafa; }
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
          background: var(--bg); }
        header { display: flex; align-items: center; gap: 24px; padding: 10px 24px; background: #fff;
          border-bottom: 1px solid var(--line); }
        h1 { font-size: 18px; margin: 0; color: var(--accent); }
        h2 { font-size: 16px; margin: 0 0 12px; }
        h3 { font-size: 14px; margin: 16px 0 8px; }
        nav button { border: 0; background: none; padding: 8px 12px; font: inherit; cursor: pointer;
          border-bottom: 2px solid transparent; }
        nav button[aria-selected="true"] { border-bottom-color: var(--accent); font-weight: 600; }
        .live { margin-left: auto; font-size: 12px; color: var(--muted); }
        .live.on::before { content: "● "; color: #12b76a; }
        main { padding: 16px 24px; }
        .columns { display: flex; gap: 24px; align-items: flex-start; flex-wrap: wrap; }
        table { border-collapse: collapse; background: #fff; border: 1px solid var(--line); }
        th, td { text-align: left; padding: 6px 12px; border-bottom: 1px solid var(--line); white-space: nowrap; }
        th { font-weight: 600; color: var(--muted); font-size: 12px; }
        tr.block-row, tr.account-row, tr.wallet-row, tr.request-row { cursor: pointer; }
        tr.block-row:hover, tr.account-row:hover, tr.wallet-row:hover, tr.request-row:hover, tr.selected {
          background: #fff6eb; }
        .request-page { display: flex; gap: 16px; align-items: flex-start; flex-wrap: wrap; }
        .status-settled { color: #067647; } .status-expired, .status-invalid, .status-reverted { color: #b42318; }
        .details, .card { background: #fff; border: 1px solid var(--line); padding: 12px 16px; min-width: 320px;
          max-width: 100%; overflow-x: auto; }
        .card { margin: 12px 0; display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: end; }
        .card label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); }
        input, select { font: inherit; padding: 5px 8px; border: 1px solid #d0d5dd; border-radius: 4px; }
        #add-address { width: 32em; max-width: 80vw; }
        button { font: inherit; padding: 5px 12px; border: 1px solid #d0d5dd; border-radius: 4px; background: #fff;
          cursor: pointer; }
        button[type="submit"], #add-account, #next-address { background: var(--accent); border-color: var(--accent); color: #fff; }
        dl { display: grid; grid-template-columns: max-content auto; gap: 4px 16px; margin: 0; }
        dt { color: var(--muted); }
        dd { margin: 0; word-break: break-all; }
        code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
        .error { color: #b42318; width: 100%; margin: 4px 0 0; }
        .muted, .empty { color: var(--muted); }
        .inline { display: flex; gap: 8px; align-items: center; margin-bottom: 12px; }
        td.balance, td.fiat, td.amount, td.price { font-variant-numeric: tabular-nums; text-align: right; }
        """
}
