(function () {
  "use strict";
  var form = document.querySelector("form[data-schema-form]");
  if (!form) { return; }
  var REQUIRED = "This field is required.";

  function number(text, kind) {
    text = text.trim();
    if (kind === "integer") {
      return /^-?[0-9]+$/.test(text) ? parseInt(text, 10) : "Enter a whole number.";
    }
    var value = Number(text);
    return text !== "" && isFinite(value) ? value : "Enter a number.";
  }

  function bounds(input, value) {
    var min = input.getAttribute("min"), max = input.getAttribute("max");
    if (min !== null) {
      if (input.dataset.exclusiveMin && !(value > Number(min))) { return "Enter a value greater than " + min + "."; }
      if (!(value >= Number(min))) { return "Enter a value of at least " + min + "."; }
    }
    if (max !== null) {
      if (input.dataset.exclusiveMax && !(value < Number(max))) { return "Enter a value less than " + max + "."; }
      if (!(value <= Number(max))) { return "Enter a value of at most " + max + "."; }
    }
    return "";
  }

  function text(input, value) {
    var length = Array.from(value).length, data = input.dataset;
    if (data.minLength !== undefined && length < Number(data.minLength)) {
      return "Enter at least " + data.minLength + " characters.";
    }
    if (data.maxLength !== undefined && length > Number(data.maxLength)) {
      return "Enter at most " + data.maxLength + " characters.";
    }
    if (data.pattern !== undefined && !new RegExp(data.pattern, "u").test(value)) {
      return "Enter a value that matches " + data.pattern + ".";
    }
    return "";
  }

  function check(input) {
    var kind = input.dataset.kind, value = input.value;
    if (kind === "boolean") { return ""; }
    if (value.trim() === "") {
      return input.required && !inEmptyOptionalGroup(input) ? REQUIRED : "";
    }
    if (kind === "integer" || kind === "number") {
      var parsed = number(value, kind);
      return typeof parsed === "string" ? parsed : bounds(input, parsed);
    }
    if (kind === "lines" && input.dataset.itemKind !== "text") {
      var lines = value.split("\n").filter(function (line) { return line.trim() !== ""; });
      for (var i = 0; i < lines.length; i++) {
        if (typeof number(lines[i], input.dataset.itemKind) === "string") {
          return "Enter one " + (input.dataset.itemKind === "integer" ? "whole number" : "number") + " a line.";
        }
      }
      return "";
    }
    if (kind === "json") {
      try { JSON.parse(value); } catch (error) { return "Enter valid JSON."; }
      return "";
    }
    return kind === "text" ? text(input, value) : "";
  }

  function filled(group) {
    return Array.prototype.some.call(group.querySelectorAll("[data-field]"), function (input) {
      return input.dataset.kind !== "boolean" && input.value.trim() !== "";
    });
  }

  function inEmptyOptionalGroup(input) {
    for (var group = input.closest("fieldset[data-group]"); group; group = group.parentElement.closest("fieldset[data-group]")) {
      if (group.hasAttribute("data-optional") && !filled(group)) { return true; }
    }
    return false;
  }

  function show(input, message) {
    var output = document.getElementById(input.id + "-error");
    if (output) { output.textContent = message; }
    input.setAttribute("aria-invalid", message ? "true" : "false");
  }

  var inputs = Array.prototype.slice.call(form.querySelectorAll("[data-field]"));
  inputs.forEach(function (input) {
    input.addEventListener("change", function () { show(input, check(input)); });
  });
  form.addEventListener("submit", function (event) {
    var first = null;
    inputs.forEach(function (input) {
      var message = check(input);
      show(input, message);
      if (message && first === null) { first = input; }
    });
    if (first !== null) {
      event.preventDefault();
      first.focus();
    }
  });
}());
