"""The form pages in a real browser: Debian's headless Chromium driven through chromedriver
(WebDriver, selenium). Load a form, fill it, see the browser's validation message next to its
field, see the server's, submit with the keyboard, get the model. Each page's screenshot is
saved under the test's tmp dir."""

from __future__ import annotations

import json
import shutil

import pytest

from schema_harness import SERVER

CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")
if CHROMIUM is None or CHROMEDRIVER is None:
    pytest.skip("the browser tests need Debian's chromium and chromium-driver "
                "(apt-get install chromium chromium-driver; .ci/run installs them as root)",
                allow_module_level=True)

from selenium import webdriver  # noqa: E402 (only where there is a browser to drive)
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--window-size=1000,1600"]


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in [*CHROMIUM_FLAGS, f"--user-data-dir={tmp_path_factory.mktemp('chromium')}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


@pytest.fixture
def base_url(server):
    host, port = server.address
    return f"http://{host}:{port}"


def field(browser, name):
    return browser.find_element(By.ID, f"f-{name}")


def message(browser, name):
    return browser.find_element(By.ID, f"f-{name}-error").text


def fill(browser, values):
    for name, text in values.items():
        control = field(browser, name)
        control.clear()
        control.send_keys(text)


def strip_ids(model):
    if isinstance(model, dict):
        return {key: ({"type": value["type"]} if key == "?" else strip_ids(value))
                for key, value in model.items()}
    return model


def test_fill_validate_and_submit_a_form(browser, base_url, tmp_path):
    browser.get(f"{base_url}/forms/{SERVER}")
    browser.save_screenshot(str(tmp_path / "form.png"))
    assert browser.find_element(By.TAG_NAME, "h1").text == "Server"
    assert [legend.text for legend in browser.find_elements(By.TAG_NAME, "legend")] == [
        "Basics", "Network", "Storage", "disk (optional)", "spare (optional)", "notes"]

    fill(browser, {"name": "web", "port": "70000", "disk.kind": "ssd"})
    browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    assert message(browser, "port") == "Enter a value less than 65536."
    assert message(browser, "disk.size") == "This field is required."
    assert message(browser, "name") == ""
    assert field(browser, "port").get_attribute("aria-invalid") == "true"
    assert browser.switch_to.active_element == field(browser, "port")  # focus on the first
    assert browser.current_url == f"{base_url}/forms/{SERVER}"  # nothing was sent
    browser.save_screenshot(str(tmp_path / "invalid.png"))

    fill(browser, {"port": "8080", "disk.size": "20"})
    field(browser, "disk.size").send_keys(Keys.ENTER)  # submitted from the keyboard
    model = json.loads(browser.find_element(By.ID, "model").text)
    browser.save_screenshot(str(tmp_path / "model.png"))
    assert strip_ids(model) == {"?": {"type": SERVER}, "name": "web", "flavor": "m1.small",
                                "port": 8080, "disk": {"?": {"type": "forms.library.Disk"},
                                                       "size": 20, "kind": "ssd"}}


def test_the_servers_messages_stand_next_to_their_fields(browser, base_url, tmp_path):
    """What the browser lets through (a submission without the page's script, here
    ``form.submit()``, which skips it) the server checks and answers next to the field."""
    browser.get(f"{base_url}/forms/forms.app.Checks")
    fill(browser, {"digits": "12a", "range": "11", "atLeast": "5", "below": "3",
                   "chained": "1", "longText": "x", "shortText": "y"})
    browser.execute_script("document.querySelector('form[data-schema-form]').submit()")
    browser.save_screenshot(str(tmp_path / "server-errors.png"))
    assert message(browser, "digits") == "'12a' does not match '^[0-9]+$'."
    assert message(browser, "range") == "11 is greater than the maximum of 10."
    assert browser.find_element(By.ID, "error-summary").get_attribute("role") == "alert"
    assert field(browser, "digits").get_attribute("value") == "12a"


def test_every_control_is_labelled_and_reachable_by_tab(browser, base_url):
    browser.get(f"{base_url}/forms/{SERVER}")
    controls = browser.find_elements(By.CSS_SELECTOR, "[data-field]")
    for control in controls:
        label = browser.find_element(By.CSS_SELECTOR, f"label[for='{control.get_attribute('id')}']")
        assert label.text.strip()
    reached = []
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    for _ in range(len(controls) + 1):
        reached.append(browser.switch_to.active_element.get_attribute("name")
                       or browser.switch_to.active_element.tag_name)
        browser.switch_to.active_element.send_keys(Keys.TAB)
    assert reached == [control.get_attribute("name") for control in controls] + ["button"]
