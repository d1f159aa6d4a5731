// drawodds serve: the card grid, and the progress of long work. No library, no build step;
// every page also works without this script (plain forms).
"use strict";

function cardsIn(text) {
  // Card codes typed in the hand box, as the grid names them (As, Td, Jk); "10" is a ten.
  const found = [];
  const re = /(10|[2-9tjqka])\s*([cdhs♣♦♥♠])|jk|🃏/gi;
  const suits = { "♣": "c", "♦": "d", "♥": "h", "♠": "s" };
  for (const m of text.matchAll(re)) {
    if (!m[1]) { found.push("Jk"); continue; }
    const rank = m[1] === "10" ? "T" : m[1].toUpperCase();
    found.push(rank + (suits[m[2]] || m[2].toLowerCase()));
  }
  return found;
}

function setupGrid() {
  const box = document.getElementById("hand");
  const buttons = document.querySelectorAll(".grid .pick");
  if (!box || !buttons.length) return;
  const show = () => {
    const chosen = new Set(cardsIn(box.value));
    buttons.forEach(b => b.setAttribute("aria-pressed", chosen.has(b.dataset.card) ? "true" : "false"));
  };
  buttons.forEach(b => b.addEventListener("click", () => {
    let chosen = cardsIn(box.value);
    if (chosen.includes(b.dataset.card)) chosen = chosen.filter(c => c !== b.dataset.card);
    else if (chosen.length < 5) chosen.push(b.dataset.card);
    box.value = chosen.join(" ");
    show();
  }));
  box.addEventListener("input", show);
  show();
}

function setupJobs() {
  document.querySelectorAll(".job[data-job]").forEach(panel => {
    const id = panel.dataset.job;
    const bar = panel.querySelector("progress");
    const stage = panel.querySelector(".stage-text");
    panel.querySelector(".cancel").addEventListener("click", () => {
      const token = document.querySelector('meta[name="drawodds-form"]');
      fetch("/api/jobs/" + id + "/cancel", { method: "POST", headers: { "X-Drawodds-Form": token ? token.content : "" } });
    });
    const poll = () => {
      fetch("/api/jobs/" + id).then(r => r.json()).then(s => {
        if (s.progress !== undefined) bar.value = s.progress;
        if (s.stage) stage.textContent = s.stage;
        if (s.state === "queued" || s.state === "running") { setTimeout(poll, 400); return; }
        const url = panel.dataset.result;
        if (s.state === "cancelled" && !(url && url.startsWith("/keep/result/"))) {
          panel.querySelector(".stage").textContent = panel.dataset.cancelled;
          panel.querySelector(".cancel").remove();
          return;
        }
        if (url && url.startsWith("/keep/result/")) {
          fetch(url + location.search).then(r => r.text()).then(html => {
            panel.outerHTML = html;
          });
        } else if (url) {
          location.href = url;
        } else {
          panel.remove();
        }
      }).catch(() => setTimeout(poll, 1000));
    };
    setTimeout(poll, 300);
  });
}

document.addEventListener("DOMContentLoaded", () => { setupGrid(); setupJobs(); });
