"""``GET /forms/{className}`` and its submission over HTTP: the page's fields from the schema,
answers -> object model or the messages per field (the server's own validation)."""

from __future__ import annotations

import http.client
import json
from html.parser import HTMLParser
from urllib.parse import urlencode

import pytest

from schema_harness import SERVER


def fetch(address, method, path, fields=None, accept="text/html"):
    connection = http.client.HTTPConnection(*address, timeout=60)
    try:
        body = urlencode(fields).encode() if fields is not None else None
        headers = {"Accept": accept}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type"), response.read().decode()
    finally:
        connection.close()


class Inputs(HTMLParser):
    """The form's controls and labels: name -> (tag, attributes); label targets; legends."""

    def __init__(self):
        super().__init__()
        self.controls, self.labels, self.legends, self._legend = {}, set(), [], None

    def handle_starttag(self, tag, attributes):
        attributes = dict(attributes)
        if tag in ("input", "select", "textarea"):
            self.controls[attributes["name"]] = (tag, attributes)
        elif tag == "label":
            self.labels.add(attributes.get("for"))
        elif tag == "legend":
            self._legend = ""

    def handle_data(self, data):
        if self._legend is not None:
            self._legend += data

    def handle_endtag(self, tag):
        if tag == "legend":
            self.legends.append(" ".join(self._legend.split()))
            self._legend = None


ABSENT = "(absent)"  # an attribute the control does not have; a valueless one reads None


def page_inputs(address, path) -> Inputs:
    status, content_type, text = fetch(address, "GET", path)
    assert (status, content_type) == (200, "text/html; charset=utf-8")
    parser = Inputs()
    parser.feed(text)
    return parser


def test_the_form_has_a_labelled_control_per_visible_property(server):
    inputs = page_inputs(server.address, f"/forms/{SERVER}")
    assert sorted(inputs.controls) == ["comment", "counter", "disk.kind", "disk.size", "flavor",
                                       "name", "port", "shown", "spare.kind", "spare.size"]
    assert {attributes["id"] for _, attributes in inputs.controls.values()} <= inputs.labels
    assert inputs.legends == ["Basics", "Network", "Storage", "disk (optional)",
                              "spare (optional)", "notes"]


@pytest.mark.parametrize("name, expected", [
    ("name", ("input", {"type": "text", "required": None})),
    ("flavor", ("input", {"type": "text", "value": "m1.small"})),
    ("port", ("input", {"type": "number", "min": "0", "max": "65536", "step": "1",
                        "data-exclusive-min": "true", "data-exclusive-max": "true"})),
    ("disk.size", ("input", {"type": "number", "required": None})),
    ("counter", ("input", {"type": "number", "required": ABSENT})),
])
def test_controls_carry_the_schemas_rules(server, name, expected):
    tag, attributes = page_inputs(server.address, f"/forms/{SERVER}").controls[name]
    assert (tag, {key: attributes.get(key, ABSENT) for key in expected[1]}) == expected


CHECKS = [
    ("color", ("select", {"data-kind": "choice", "required": ABSENT})),
    ("size", ("select", {"data-kind": "choice", "required": None})),
    ("digits", ("input", {"type": "text", "data-pattern": "^[0-9]+$", "required": None})),
    ("atMost", ("input", {"type": "number", "max": "2.5", "data-exclusive-max": ABSENT})),
    ("above", ("input", {"type": "number", "min": "-3", "data-exclusive-min": "true"})),
]


@pytest.mark.parametrize("name, expected", CHECKS)
def test_choices_patterns_and_bounds(server, name, expected):
    tag, attributes = page_inputs(server.address, "/forms/forms.app.Checks").controls[name]
    assert (tag, {key: attributes.get(key, ABSENT) for key in expected[1]}) == expected


def test_choice_options(server):
    status, _, text = fetch(server.address, "GET", "/forms/forms.app.Checks")
    assert ('<option value="" selected>— none —</option>\n'
            '    <option value="&#34;red&#34;">red</option>\n'
            '    <option value="&#34;green&#34;">green</option>\n  </select>') in text


def strip_ids(model):
    if isinstance(model, dict):
        return {key: ({"type": value["type"]} if key == "?" else strip_ids(value))
                for key, value in model.items()}
    return model


SUBMISSIONS = [
    ({"name": "web", "flavor": "m1.small", "port": "8080", "counter": "", "disk.size": "20",
      "disk.kind": "", "spare.size": "", "spare.kind": "", "comment": "", "shown": ""},
     200, {"?": {"type": SERVER}, "name": "web", "flavor": "m1.small", "port": 8080,
           "disk": {"?": {"type": "forms.library.Disk"}, "size": 20}}),
    ({"name": "web", "flavor": "", "port": "1"}, 200,
     {"?": {"type": SERVER}, "name": "web", "port": 1}),
    ({"name": "", "port": "65536", "counter": "1.5", "disk.kind": "ssd"}, 422,
     {"name": ["This field is required."], "counter": ["Enter a whole number."],
      "disk.size": ["This field is required."],
      "port": ["65536 is greater than or equal to the maximum of 65536."]}),
    ({"name": "web", "port": "0"}, 422,
     {"port": ["0 is less than or equal to the minimum of 0."]}),
]


@pytest.mark.parametrize("fields, status, expected", SUBMISSIONS)
def test_submissions_answer_the_model_or_the_fields_in_error(server, fields, status, expected):
    answered, content_type, text = fetch(server.address, "POST", f"/forms/{SERVER}", fields,
                                         accept="application/json")
    assert (answered, content_type) == (status, "application/json; charset=utf-8")
    answer = json.loads(text)
    assert (strip_ids(answer) if status == 200 else answer["error"]["fields"]) == expected


def test_a_submission_in_error_shows_each_message_next_to_its_field(server):
    status, _, text = fetch(server.address, "POST", f"/forms/{SERVER}",
                            {"name": "", "port": "x1", "flavor": "m1"})
    assert status == 422
    assert ('<p class="error" id="f-name-error" aria-live="polite">This field is required.</p>'
            in text)
    assert 'id="f-flavor" name="flavor" value="m1"' in text  # the answers are kept
    assert 'role="alert"' in text


def test_the_model_page(server):
    status, content_type, text = fetch(server.address, "POST", f"/forms/{SERVER}",
                                       {"name": "web", "port": "80"})
    assert (status, content_type) == (200, "text/html; charset=utf-8")
    assert '<pre id="model"><code>{' in text and "&#34;forms.app.Server&#34;" in text


@pytest.mark.parametrize("path, status, error_type", [
    ("/forms/forms.app.Missing", 404, "NoClassFound"),
    (f"/forms/{SERVER}?classVersion=%3E%3E", 400, "InvalidVersionSpec"),
])
def test_a_form_of_no_class(server, path, status, error_type):
    answered, content_type, text = fetch(server.address, "GET", path)
    assert (answered, content_type) == (status, "text/html; charset=utf-8")
    assert f"<h1>{error_type}</h1>" in text
