"""The app in WebKit, the engine of Safari on the iPhone: Debian's WebKitGTK
MiniBrowser driven through WebKitWebDriver (Playwright cannot drive it) on a
virtual display, against the release binary. One visit a phone makes: sign
up, sign in, record with WebKit's mock microphone, save the client, open it
again from History and, once the box has transcribed and compressed it,
play the recording as WebKit gets it (Ogg Opus, or WAV where it cannot play
that). Seeking is left to the Chromium test: under load, WebKitGTK's
GStreamer sometimes learns no length for an Ogg file, and cannot seek in it.

    DEBRIEF_BIN=target/release/debrief DEBRIEF_TEST_MODELS=... python -m unittest discover -s frontend/webkit
"""

import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import unittest

from selenium import webdriver
from selenium.common.exceptions import (
    ElementNotInteractableException,
    StaleElementReferenceException,
    TimeoutException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
WEBDRIVER = "/usr/bin/WebKitWebDriver"
WAIT_S = 30
RECORD_S = 3


def start_display():
    """Xvfb on a display number it picks itself; returns (process, ":N")."""
    read, write = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                            pass_fds=[write], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as f:
        number = f.readline().strip()
    if not number:
        proc.kill()
        raise RuntimeError("Xvfb did not start (scripts/install-system-packages installs xvfb)")
    return proc, f":{number}"


def binary():
    found = os.environ.get("DEBRIEF_BIN")
    if not found:
        raise RuntimeError("set DEBRIEF_BIN to the release binary (scripts/test does)")
    return found


def whisper_models(data_dir):
    """A models folder with Whisper tiny.en from the test models, imported by
    the real `debrief models import`, so recordings get transcribed (and then
    compressed)."""
    source = os.path.join(os.environ.get("DEBRIEF_TEST_MODELS", ""), "whisper-tiny.en-ct2")
    if not os.path.isdir(source):
        raise RuntimeError("set DEBRIEF_TEST_MODELS to the test models (scripts/test does)")
    models = os.path.join(data_dir, "models")
    subprocess.run([binary(), "models", "import", source, "--models-dir", models, "--data-dir", data_dir],
                   check=True, capture_output=True)
    return models


def start_server(data_dir):
    """`debrief serve` on plain HTTP at 127.0.0.1 (a secure context, so the
    microphone is allowed), with Whisper; returns (process, URL, its output so far)."""
    models = whisper_models(data_dir)
    proc = subprocess.Popen([binary(), "serve", "--http", "--bind", "127.0.0.1:0", "--data-dir", data_dir,
                             "--models-dir", models, "--asr", "whisper"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    printed = []
    for line in proc.stdout:
        printed.append(line.rstrip())
        if line.startswith("ready: "):
            # Keep reading so a chatty server never blocks on a full pipe.
            threading.Thread(target=lambda: [printed.append(l.rstrip()) for l in proc.stdout], daemon=True).start()
            return proc, line[len("ready: "):].strip(), printed
    proc.wait()
    raise RuntimeError("the server did not start:\n" + "\n".join(printed))


def stop(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    # Only once it has ended: a reader thread may still hold the pipe until then.
    if proc.stdout:
        proc.stdout.close()


class WebKitPhone(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.data_dir = tempfile.mkdtemp(prefix="debrief-webkit-")
        cls.server, cls.url, cls.printed = start_server(cls.data_dir)
        cls.display, display = start_display()
        options = webdriver.WebKitGTKOptions()
        options.binary_location = MINIBROWSER
        # --automation lets WebKitWebDriver drive it; the mock devices stand in for a microphone.
        for arg in ["--automation", "--enable-media-stream=true", "--enable-mock-capture-devices=true"]:
            options.add_argument(arg)
        service = webdriver.WebKitGTKService(executable_path=WEBDRIVER, env={**os.environ, "DISPLAY": display})
        cls.driver = webdriver.WebKitGTK(options=options, service=service)
        cls.driver.set_window_size(390, 844)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        stop(cls.display)
        stop(cls.server)
        shutil.rmtree(cls.data_dir, ignore_errors=True)

    # --- what a person sees and does --------------------------------------------------

    def until(self, what, condition):
        try:
            # An element found in one render may be gone by the next look, or
            # not yet take a tap (a row still being laid out): look again.
            wait = WebDriverWait(self.driver, WAIT_S, poll_frequency=0.1,
                                 ignored_exceptions=[StaleElementReferenceException, ElementNotInteractableException])
            return wait.until(lambda d: condition())
        except TimeoutException:
            if os.environ.get("DEBRIEF_E2E_ARTIFACTS"):
                os.makedirs(os.environ["DEBRIEF_E2E_ARTIFACTS"], exist_ok=True)
                self.driver.save_screenshot(os.path.join(os.environ["DEBRIEF_E2E_ARTIFACTS"], "webkit-failure.png"))
            body = self.driver.find_element(By.TAG_NAME, "body").text
            server = "\n".join(self.printed[-20:])
            self.fail(f"waited {WAIT_S} s for {what} at {self.driver.current_url}; the page says:\n{body}\n"
                      f"the server printed:\n{server}")

    def heading(self, name):
        # textContent, not the rendered text WebDriver reads: some pages' h1 is for screen readers only.
        self.until(f"the heading {name!r}", lambda: self.driver.execute_script(
            "return [...document.querySelectorAll('h1')].some(h => h.textContent.trim() === arguments[0])", name))

    def button(self, name):
        def find():
            for b in self.driver.find_elements(By.TAG_NAME, "button"):
                if b.text.strip() == name and b.is_enabled():
                    return b
            return None
        return self.until(f"the button {name!r}", find)

    def text(self, words):
        # textContent: WebKit's WebDriver leaves the text of `content-visibility: auto` rows out.
        self.until(f"the words {words!r}", lambda: self.driver.execute_script(
            "return document.body.textContent.includes(arguments[0])", words))

    def fill(self, label, value):
        """The field whose label reads `label` (the label's `for`, as a screen reader finds it)."""
        def find():
            for node in self.driver.find_elements(By.TAG_NAME, "label"):
                if node.text.strip() == label and node.get_attribute("for"):
                    return self.driver.find_element(By.ID, node.get_attribute("for"))
            return None
        field = self.until(f"the field {label!r}", find)
        field.clear()
        field.send_keys(value)

    def at(self, path_pattern):
        self.until(f"the path {path_pattern}", lambda: re.fullmatch(
            path_pattern, self.driver.execute_script("return location.pathname")))

    def fits_the_screen(self, where):
        width = self.driver.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
        self.assertLessEqual(width[0], width[1], f"{where} scrolls sideways: {width}")

    def api(self, path):
        """A GET from inside the page, with its cookie, as the app makes it."""
        return self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch(arguments[0], {credentials: 'same-origin'}).then(r => r.text().then(t => done([r.status, t])),"
            " e => done([0, String(e)]));", path)

    # --- the visit ----------------------------------------------------------------------

    def play_a_moment(self):
        """Plays the page's recording muted for a moment: [what the player
        loaded, how far it got, any error]."""
        return self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const audio = document.querySelector('audio');
            const fail = () => done([audio.currentSrc, audio.currentTime, String(audio.error?.code)]);
            audio.addEventListener('error', fail);
            audio.muted = true;
            audio.play().then(() => setTimeout(() => {
              audio.pause();
              done([audio.currentSrc, audio.currentTime, null]);
            }, 700), fail);
        """)

    def test_a_phone_in_webkit_signs_up_records_saves_a_client_and_plays_it_back_compressed(self):
        d = self.driver
        email = f"safari-{int(time.time() * 1000)}@example.com"
        password = "correct horse battery"

        d.get(self.url + "/signup")
        self.heading("Create Account")
        for label, value in [("First Name", "Ada"), ("Last Name", "Lovelace"), ("Email", email),
                             ("Password", password), ("Confirm Password", password),
                             ("Company", "Analytical Engines"), ("Position", "Analyst")]:
            self.fill(label, value)
        self.fits_the_screen("Create Account")
        self.button("Create Account").click()
        self.at("/login")

        self.heading("Welcome back")
        self.fill("Email", email)
        self.fill("Password", password)
        self.button("Sign In").click()
        self.heading("New Client")
        self.at("/")
        self.fits_the_screen("New Client")

        self.button("Start Recording").click()
        self.text("STOP RECORDING")
        time.sleep(RECORD_S)
        self.button("STOP RECORDING").click()
        self.text("Recording Complete")

        client = {"Full Name": "Grace Hopper", "Email Address": f"grace-{int(time.time())}@client.example",
                  "Phone Number": "+1 (555) 010-2030", "Company": "Hopper Systems", "Position": "Rear Admiral"}
        for label, value in client.items():
            self.fill(label, value)
        self.button("Save Client").click()
        self.at(r"/client/\d+")
        self.heading("Grace Hopper")
        client_id = d.execute_script("return location.pathname").rsplit("/", 1)[-1]

        status, body = self.api(f"/api/clients/{client_id}")
        self.assertEqual(status, 200, body)
        saved = json.loads(body)
        self.assertEqual(saved["email"], client["Email Address"])
        recording = saved.get("recording")
        self.assertTrue(recording, f"the recording is attached: {saved}")
        # 16 kHz mono 16-bit: 32,000 bytes a second, and about RECORD_S seconds of it.
        self.assertGreater(recording["size"], 32_000 * (RECORD_S - 1), recording)

        # Opened again from History, with its player.
        d.find_element(By.LINK_TEXT, "Back to History").click()
        self.at("/history")
        self.text("Grace Hopper")
        self.fits_the_screen("History")
        row = f'a[href="/client/{client_id}"]'
        self.until("the client's row to take a tap", lambda: d.find_element(By.CSS_SELECTOR, row).click() or True)
        self.at(f"/client/{client_id}")
        self.heading("Grace Hopper")
        self.until("the recording's player", lambda: d.find_elements(By.CSS_SELECTOR, "audio[controls]"))
        self.fits_the_screen("the client's page")

        # Transcribed, then kept as Ogg Opus: the page, opened afresh, plays it.
        def compressed():
            status, body = self.api(f"/api/clients/{client_id}")
            found = json.loads(body) if status == 200 else {}
            return found.get("recording", {}).get("contentType") == "audio/ogg" and found
        stored = WebDriverWait(d, 150, poll_frequency=1).until(lambda _: compressed(), "the recording is compressed")
        d.refresh()
        self.heading("Grace Hopper")
        self.until("the recording's player", lambda: d.find_elements(By.CSS_SELECTOR, "audio[controls]"))
        played = self.play_a_moment()
        source, advanced, error = played
        self.assertIsNone(error, f"WebKit could not play {source}")
        self.assertTrue(source.endswith(stored["recordingUrl"]) or source.endswith(stored["recordingUrl"] + "&as=wav"),
                        source)
        self.assertGreater(advanced, 0.1, f"playing {source} moved on: {played}")


if __name__ == "__main__":
    unittest.main()
