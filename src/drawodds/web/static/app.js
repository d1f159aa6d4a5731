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
            showVerdict();
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

function setupDrawCounts() {
  // Offer only the draw counts the chosen rules allow (the server checks them again).
  const rules = document.querySelector("select.rules");
  if (!rules) return;
  const limit = () => {
    const most = Number(rules.selectedOptions[0].dataset.most || 5);
    document.querySelectorAll("select.draw-count").forEach(s => {
      s.querySelectorAll("option").forEach(o => {
        const over = o.value !== "" && Number(o.value) > most;
        o.disabled = over;
        o.hidden = over;
      });
      if (s.selectedOptions[0] && s.selectedOptions[0].disabled) s.value = s.querySelector("option").value;
    });
  };
  rules.addEventListener("change", limit);
  limit();
}

function setupTrainer() {
  // Refuse a hold that would draw more cards than the rules allow before the answer is sent.
  const dealt = document.querySelector(".dealt[data-draw]");
  const form = document.getElementById("answer");
  if (!dealt || !form) return;
  const warning = document.getElementById("too-few");
  form.addEventListener("submit", event => {
    const kept = [...dealt.querySelectorAll("input:checked")].map(i => i.value);
    const most = Number(kept.some(c => c[0] === "A") ? dealt.dataset.drawAce : dealt.dataset.draw);
    if (5 - kept.length > most) {
      event.preventDefault();
      warning.hidden = false;
      warning.scrollIntoView({ block: "nearest" });
    }
  });
}

function showVerdict() {
  // After "rank the holds" the verdict is the answer: bring it into view on a small screen.
  const verdict = document.querySelector("#verdict, #reading .verdict, #grade");
  if (verdict) verdict.scrollIntoView({ block: "start" });
}

function setupConfirm() {
  document.querySelectorAll("form[data-confirm]").forEach(form => {
    form.addEventListener("submit", event => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  });
}

document.addEventListener("DOMContentLoaded", () => {
  setupGrid(); setupJobs(); setupDrawCounts(); setupTrainer(); setupConfirm(); showVerdict();
});
