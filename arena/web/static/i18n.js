// The pages' own words in the game's language, from i18n.json (the server reads the
// same file for the words it sends). T("key", {name: ...}) fills {name}; a word
// missing in a language is said in English. Elements marked data-i18n (text),
// data-i18n-placeholder and data-i18n-title are translated in place.
"use strict";

let WORDS = { en: {} };
let LANG = "en";

async function loadWords() {
  try {
    WORDS = await (await fetch("/static/i18n.json")).json();
  } catch (e) {
    /* the words are a nicety: English keys stand in */
  }
}

function T(key, vars) {
  const text = (WORDS[LANG] || {})[key] ?? (WORDS.en || {})[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, k) => (vars && k in vars ? String(vars[k]) : m));
}

function setLanguage(lang) {
  const next = WORDS[lang] ? lang : "en";
  const changed = next !== LANG;
  LANG = next;
  document.documentElement.lang = LANG === "zh" ? "zh-CN" : LANG;
  for (const n of document.querySelectorAll("[data-i18n]")) n.textContent = T(n.dataset.i18n);
  for (const n of document.querySelectorAll("[data-i18n-placeholder]")) n.placeholder = T(n.dataset.i18nPlaceholder);
  for (const n of document.querySelectorAll("[data-i18n-title]")) n.title = T(n.dataset.i18nTitle);
  return changed;
}
