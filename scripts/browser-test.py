#!/usr/bin/env python3
"""Drives the watcher's web UI in a real browser (Selenium, Debian's chromium and chromium-driver).

Usage: /usr/bin/python3 scripts/browser-test.py --base URL --simnet URL --followed ADDR --funded ADDR
           --unused ADDR [--screenshots DIR]
The daemon at --base follows --followed through its config and reads the simnet at --simnet. Every wait has a
deadline (WebDriverWait); nothing sleeps to synchronise. Prints each step; exits 1 on the first failure.
Run it with Debian's /usr/bin/python3, which sees python3-selenium (`make test-deps`); a pyenv or venv `python3`
first on PATH, which the shebang would pick, does not. The tests run it with $WATCHER_PYTHON.
"""
import argparse
import json
import os
import sys
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

WAIT = 60


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,900",
                     "--disable-gpu", "--no-first-run"]:
        options.add_argument(argument)
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


class Run:
    def __init__(self, driver, args):
        self.driver = driver
        self.args = args

    def step(self, text):
        print("step:", text, flush=True)

    def until(self, what, condition, timeout=WAIT):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.1,
                                 ignored_exceptions=[StaleElementReferenceException]).until(lambda d: condition())
        except Exception as error:
            raise AssertionError(f"timed out waiting for {what}: {type(error).__name__}") from None

    def find(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def values(self, css, attribute):
        """An attribute (or, with "text", the text) of every match, read in one go: panels are re-rendered live."""
        script = ("return [...document.querySelectorAll(arguments[0])]"
                  ".map(e => arguments[1] === 'text' ? e.textContent.trim() : e.getAttribute(arguments[1]));")
        return self.driver.execute_script(script, css, attribute)

    def click(self, css, what):
        """Clicks the first match, again if a live re-render replaced it in between."""
        def attempt():
            found = self.find(css)
            if not found:
                return False
            found[0].click()
            return True
        self.until(what, attempt)

    def text(self, element_id):
        script = "const e = document.getElementById(arguments[0]); return e ? e.textContent.trim() : '';"
        return self.driver.execute_script(script, element_id)

    def visible(self, element_id):
        script = ("const e = document.getElementById(arguments[0]);"
                  "return !!e && getComputedStyle(e).display !== 'none' && e.getClientRects().length > 0;")
        return self.driver.execute_script(script, element_id)

    def shot(self, name):
        if self.args.screenshots:
            os.makedirs(self.args.screenshots, exist_ok=True)
            self.driver.save_screenshot(os.path.join(self.args.screenshots, name + ".png"))

    def mine(self):
        request = urllib.request.Request(self.args.simnet.rstrip("/") + "/control/mine", data=b'{"count": 1}',
                                         method="POST", headers={"Content-Type": "application/json"})
        urllib.request.urlopen(request, timeout=10).read()

    def truth_btc(self, address):
        """The address's confirmed balance on the simnet, as the UI shows it."""
        url = self.args.simnet.rstrip("/") + "/control/addresses"
        rows = json.load(urllib.request.urlopen(url, timeout=10))["addresses"]
        sats = next(row["confirmedBalanceSat"] for row in rows if row["address"] == address)
        return f"{'-' if sats < 0 else ''}{abs(sats) // 100_000_000}.{abs(sats) % 100_000_000:08d}"

    def add(self, address):
        self.driver.find_element(By.ID, "add-account").click()
        self.until("the Add account form", lambda: self.visible("add-form"))
        field = self.driver.find_element(By.ID, "add-address")
        field.clear()
        field.send_keys(address)
        self.driver.find_element(By.ID, "add-confirm").click()

    def add_fails(self, address, words, shot):
        self.add(address)
        self.until(f"an error about {address}", lambda: self.visible("add-error") and self.text("add-error"))
        message = self.text("add-error")
        assert words in message, f"the error for {address} says {message!r}, not {words!r}"
        assert self.visible("add-form"), "the form closed after an error"
        assert not self.find(f'tr.account-row[data-address="{address}"]'), f"{address} was listed"
        self.shot(shot)
        self.driver.find_element(By.ID, "add-cancel").click()

    def blocks(self):
        self.step("Blocks tab: the 20 most recent stored blocks, newest first")
        self.driver.get(self.args.base)
        self.until("block rows", lambda: len(self.find("tr.block-row")) > 0)
        heights = [int(h) for h in self.values("tr.block-row", "data-block")]
        assert heights == sorted(heights, reverse=True), f"blocks not newest first: {heights}"
        assert len(heights) <= 20, f"{len(heights)} rows"
        assert len(self.values("tr.block-row time", "datetime")) == len(heights), "a row without a time"
        self.until("the live indicator", lambda: self.text("live") == "live")
        self.shot("blocks")

        self.step("block details")
        height = str(heights[1 if len(heights) > 1 else 0])
        self.click(f'tr.block-row[data-block="{height}"]', f"block {height}")
        self.until("block details", lambda: self.text("block-height") == height)
        for field in ["block-hash", "block-time", "block-merkle-root", "block-tx-count", "block-nonce"]:
            assert self.text(field), f"{field} is empty"
        assert len(self.text("block-hash")) == 64 and len(self.text("block-merkle-root")) == 64
        labels = self.values("#block-details dt", "text")
        assert labels == ["Hash", "Height", "Time", "Merkle root", "Transactions", "Nonce"], labels
        self.shot("block-details")

        self.step("a block not stored, found by height through the providers")
        missing = str(min(heights) - 20)
        field = self.driver.find_element(By.ID, "block-id")
        field.clear()
        field.send_keys(missing)
        self.driver.find_element(By.CSS_SELECTOR, "#block-search button").click()
        self.until(f"block {missing}", lambda: self.text("block-height") == missing)
        assert len(self.text("block-hash")) == 64, self.text("block-hash")

        self.step("a block mined while the page is open appears without a reload")
        self.driver.execute_script("window.__noReload = true;")
        top = heights[0]
        self.mine()
        self.until(f"block {top + 1} at the top",
                   lambda: self.values("tr.block-row", "data-block")[:1] == [str(top + 1)])
        assert self.driver.execute_script("return window.__noReload === true;"), "the page reloaded"

    def accounts(self):
        args = self.args
        self.step("Accounts tab: the config's address with its balance")
        self.driver.find_element(By.ID, "tab-accounts").click()
        followed = f'tr.account-row[data-address="{args.followed}"]'
        self.until("the followed account with a balance",
                   lambda: self.find(followed) and not self.find(followed + " td.balance[data-pending]"))
        self.until("fiat values", lambda: self.find(followed + " td.fiat"))
        self.shot("accounts")

        self.step("adding an invalid address")
        self.add_fails("bc1qnotanaddress", "invalid", "add-invalid")
        self.step("adding an unused address")
        self.add_fails(args.unused, "no transactions", "add-unused")

        self.step("adding a funded address")
        funded_btc = self.truth_btc(args.funded)
        self.add(args.funded)
        row = f'tr.account-row[data-address="{args.funded}"]'
        self.until("the form to close", lambda: not self.visible("add-form"))
        self.until("the new account in the list", lambda: self.find(row))
        self.until("its balance", lambda: self.values(row + " td.balance", "text") == [funded_btc])
        self.shot("accounts-added")

        self.step("account details")
        self.click(row, "the new account")
        self.until("account details", lambda: self.text("account-address") == args.funded)
        self.until("its transactions", lambda: self.text("account-tx-count") not in ("", "pending")
                   and self.find("#account-txs tr.tx-row td.confirmations"))
        labels = self.values("#account-details dt", "text")
        for label in ["Address", "Transactions", "Total sent", "Total received", "Balance"]:
            assert label in labels, f"{label} missing from account details: {labels}"
        assert self.text("account-balance") == funded_btc + " BTC", self.text("account-balance")
        confirmations = [int(c) for c in self.values("#account-txs td.confirmations", "text")]
        # Newest first: a payment still in the mempool (0) may lead; confirmations never decrease down the list.
        assert confirmations and confirmations[-1] >= 1 and confirmations == sorted(confirmations), confirmations
        self.shot("account-details")

        self.step("removing the added account")
        self.click(row + " button.remove", "Remove")
        self.until("the account to go", lambda: not self.find(row))
        assert self.find(followed), "the config's account went too"

    def wallets(self):
        self.step("Wallets tab: the config's wallet, scanned, with no payments")
        self.driver.find_element(By.ID, "tab-wallets").click()
        row = 'tr.wallet-row[data-wallet="shop"]'
        self.until("the wallet with a balance",
                   lambda: self.find(row) and not self.find(row + " td.balance[data-pending]"))
        self.click(row, "the wallet")
        self.until("wallet details", lambda: self.text("wallet-id") == "shop")
        self.until("its window", lambda: "scanned 0" in self.text("wallet-receive"))
        assert self.text("wallet-descriptor").startswith("wpkh("), self.text("wallet-descriptor")
        self.shot("wallet-details")

        self.step("Next address hands out the next receive address, shown with its URI and followed")
        before = self.text("wallet-receive")
        field = self.driver.find_element(By.ID, "next-label")
        field.send_keys("Order 42")
        self.driver.find_element(By.ID, "next-address").click()
        self.until("an address handed out", lambda: self.text("next-address-text").startswith("bc1q"))
        address = self.text("next-address-text")
        assert "label=Order%2042" in self.text("next-result"), self.text("next-result")
        self.until("the window to cover it", lambda: "last issued" in self.text("wallet-receive"))
        assert self.text("wallet-receive") != before
        self.shot("wallet-next")

        self.step("a payment to it appears without a reload")
        request = urllib.request.Request(self.args.simnet.rstrip("/") + "/control/tx",
                                         data=json.dumps({"to": address, "amountSat": 42_000}).encode(),
                                         method="POST", headers={"Content-Type": "application/json"})
        urllib.request.urlopen(request, timeout=10).read()
        self.mine()
        self.until("the payment in the wallet",
                   lambda: self.text("wallet-balance") == "0.00042000 BTC"
                   and self.find("#wallet-addresses tr.wallet-address-row"))
        labels = self.values("#wallet-addresses tr.wallet-address-row td:nth-child(4)", "text")
        assert labels == ["Order 42"], labels
        self.shot("wallet-paid")

    def requests(self):
        self.step("Requests tab: a request created through the API, with its QR code")
        made = urllib.request.Request(self.args.base.rstrip("/") + "/api/requests",
                                      data=json.dumps({"wallet": "shop", "sat": 31337, "orderId": "browser-1"}).encode(),
                                      method="POST", headers={"Content-Type": "application/json"})
        request = json.loads(urllib.request.urlopen(made, timeout=10).read())
        self.driver.find_element(By.ID, "tab-requests").click()
        row = f'tr.request-row[data-request="{request["id"]}"]'
        self.until("the request, open", lambda: self.values(row + " td.status", "text") == ["open"])
        self.click(row, "the request")
        self.until("its page", lambda: self.text("request-uri") == request["uri"])
        self.until("its QR code drawn", lambda: self.driver.execute_script(
            "const i = document.getElementById('request-qr'); return i && i.complete && i.naturalWidth > 0;"))
        self.shot("request")
        self.step("paid and mined: settled without a reload")
        pay = urllib.request.Request(self.args.simnet.rstrip("/") + "/control/tx",
                                     data=json.dumps({"to": request["address"], "amountSat": 31337}).encode(),
                                     method="POST", headers={"Content-Type": "application/json"})
        urllib.request.urlopen(pay, timeout=10).read()
        self.mine()
        self.until("the request settled", lambda: self.values(row + " td.status", "text") == ["settled"])

    def prices_and_events(self):
        self.step("Prices tab")
        self.driver.find_element(By.ID, "tab-prices").click()
        self.until("USD, GBP and EUR", lambda: set(self.values("tr.price-row", "data-currency"))
                   >= {"USD", "GBP", "EUR"})
        self.shot("prices")
        self.step("Events tab, filtered by type")
        self.driver.find_element(By.ID, "tab-events").click()
        self.until("events", lambda: self.find("tr.event-row"))
        seqs = [int(q) for q in self.values("tr.event-row", "data-seq")]
        assert seqs == sorted(seqs, reverse=True), f"events not newest first: {seqs[:5]}"
        self.shot("events")
        Select(self.driver.find_element(By.ID, "event-type")).select_by_value("block.new")
        self.until("only block.new events",
                   lambda: set(self.values("tr.event-row td.type", "text")) == {"block.new"})


def main():
    parser = argparse.ArgumentParser()
    for name in ["--base", "--simnet", "--followed", "--funded", "--unused"]:
        parser.add_argument(name, required=True)
    parser.add_argument("--screenshots")
    args = parser.parse_args()
    driver = browser()
    try:
        run = Run(driver, args)
        run.blocks()
        run.accounts()
        run.wallets()
        run.requests()
        run.prices_and_events()
        # The refused adds answer 400 and 422 on purpose; the console reports those as failed loads.
        errors = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"
                  and "Failed to load resource" not in entry.get("message", "")]
        assert not errors, f"browser console errors: {json.dumps(errors)[:500]}"
        print("browser test passed", flush=True)
    except AssertionError as error:
        print("FAIL:", error, flush=True)
        try:
            print(driver.find_element(By.TAG_NAME, "main").get_attribute("innerHTML")[:3000])
        except Exception:
            pass
        sys.exit(1)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
