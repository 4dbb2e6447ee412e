// The player's clock. In Settings: time zone and waking hours, vacations, moves that play
// themselves and the daily digest. At the table: a seat "on vacation until …", a seat's time
// bank, "your turn, 3 h of your day left", and the card chosen ahead for the next turn.
import { t, addStrings, language } from "./i18n.js";
import { api } from "./api.js";
import { h, handleError, addStyles } from "./ui.js";

addStyles("clock-styles", `
.badge.vacation { background: var(--accent-soft); color: var(--text); border: 1px dashed var(--accent); }
.seat-bank { color: var(--muted); font-size: .85rem; }
.day-left { font-weight: 600; margin: .1rem 0 .6rem; }
.waking-hours { display: flex; flex-wrap: wrap; gap: 0 1rem; }
`);

// The table time bank the new-game form offers: 3 days, 12 hours back a move, at most 5 days.
export const TABLE_BANK = { initial: 3 * 86400, per_move: 12 * 3600, most: 5 * 86400 };

addStrings("en", {
  "pace.bank": "Time bank: 3 days, 12 h more a move, at most 5 days",
  "clock.day": "Your day",
  "clock.dayText": "Your time per move counts only in your waking hours: a day's pace is one waking day of yours, and no deadline of yours falls due at night.",
  "clock.zone": "Time zone",
  "clock.allDay": "Count my time all day",
  "clock.from": "Awake from",
  "clock.to": "Until",
  "clock.save": "Set my waking hours",
  "clock.saved": "Saved: your time counts from {from} to {to}, {zone}.",
  "clock.savedAllDay": "Saved: your time counts all day, {zone}.",
  "vacation.title": "Vacation",
  "vacation.away": "You are on vacation until {until}. Your deadlines stand still.",
  "vacation.home": "You are not on vacation.",
  "vacation.left": "{left} of {total} vacation days left; they refill on {date}.",
  "vacation.days": "Days away (whole days from now)",
  "vacation.start": "Start vacation",
  "vacation.end": "End vacation now",
  "auto.title": "Moves that play themselves",
  "auto.forced": "Play my forced moves for me (when only one move is possible)",
  "auto.preselect": "Let me choose my next card before my turn",
  "digest.title": "Daily digest",
  "digest.label": "A notification listing the games waiting for you, at",
  "digest.off": "Off",
  "seat.vacation": "on vacation until {until}",
  "seat.bank": "{time} in the bank",
  "day.left": "Your turn: {time} of your day left.",
  "ahead.title": "Your next card",
  "ahead.text": "Chosen ahead, it is played as soon as your turn comes, if it is still allowed. Nobody else sees it before.",
  "ahead.card": "Card to play next",
  "ahead.none": "None",
  "ahead.choose": "Choose",
  "ahead.chosen": "Chosen: {card}.",
  "ahead.cleared": "No card chosen ahead.",
  "event.automatic": "{name}'s move played itself.",
  "event.automaticYou": "Your move played itself.",
  "event.automaticPreselected": "{name}'s card chosen ahead was played.",
  "event.automaticPreselectedYou": "Your card chosen ahead was played.",
});
addStrings("fi", {
  "pace.bank": "Aikapankki: 3 päivää, 12 h lisää siirtoa kohden, enintään 5 päivää",
  "clock.day": "Päiväsi",
  "clock.dayText": "Siirtoaikasi kuluu vain valveillaoloaikanasi: päivän tahti on yksi valveillaolopäiväsi, eikä yksikään määräaikasi umpeudu yöllä.",
  "clock.zone": "Aikavyöhyke",
  "clock.allDay": "Laske aikani koko vuorokauden",
  "clock.from": "Hereillä alkaen",
  "clock.to": "Asti",
  "clock.save": "Aseta valveillaoloaikani",
  "clock.saved": "Tallennettu: aikasi kuluu {from}–{to}, {zone}.",
  "clock.savedAllDay": "Tallennettu: aikasi kuluu koko vuorokauden, {zone}.",
  "vacation.title": "Loma",
  "vacation.away": "Olet lomalla {until} asti. Määräaikasi eivät kulu.",
  "vacation.home": "Et ole lomalla.",
  "vacation.left": "Lomapäiviä jäljellä {left}/{total}; ne täyttyvät {date}.",
  "vacation.days": "Poissa (kokonaisia päiviä nyt alkaen)",
  "vacation.start": "Aloita loma",
  "vacation.end": "Lopeta loma nyt",
  "auto.title": "Itsestään pelattavat siirrot",
  "auto.forced": "Pelaa pakkosiirtoni puolestani (kun vain yksi siirto on mahdollinen)",
  "auto.preselect": "Anna minun valita seuraava korttini ennen vuoroani",
  "digest.title": "Päivän kooste",
  "digest.label": "Ilmoitus sinua odottavista peleistä, kello",
  "digest.off": "Ei koostetta",
  "seat.vacation": "lomalla {until} asti",
  "seat.bank": "aikapankissa {time}",
  "day.left": "Sinun vuorosi: päivääsi jäljellä {time}.",
  "ahead.title": "Seuraava korttisi",
  "ahead.text": "Etukäteen valittu kortti pelataan heti vuorosi tultua, jos se on yhä sallittu. Muut eivät näe sitä ennen.",
  "ahead.card": "Seuraavaksi pelattava kortti",
  "ahead.none": "Ei mitään",
  "ahead.choose": "Valitse",
  "ahead.chosen": "Valittu: {card}.",
  "ahead.cleared": "Korttia ei ole valittu etukäteen.",
  "event.automatic": "Pelaajan {name} siirto pelautui itsestään.",
  "event.automaticYou": "Siirtosi pelautui itsestään.",
  "event.automaticPreselected": "Pelaajan {name} etukäteen valitsema kortti pelattiin.",
  "event.automaticPreselectedYou": "Etukäteen valitsemasi kortti pelattiin.",
});

let mine = null; // the player's clock as last read or saved
function myClock() {
  if (!mine) mine = api.clock().catch((error) => { mine = null; throw error; });
  return mine;
}
function saved(clock) { mine = Promise.resolve(clock); return clock; }

const when = (iso) => new Date(iso).toLocaleString(language(), { weekday: "short", day: "numeric", month: "numeric", hour: "2-digit", minute: "2-digit" });

// "3 h", "2 d 4 h", "25 min"
export function duration(seconds) {
  const minutes = Math.max(1, Math.round(seconds / 60));
  if (minutes < 90) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} d${hours % 24 ? ` ${hours % 24} h` : ""}`;
}

// ---------------------------------------------------------------- Settings
export function clockSections() {
  const box = h("div", { class: "clock-settings" });
  myClock().then((clock) => box.replaceChildren(daySection(clock), vacationSection(clock),
    automaticSection(clock), digestSection(clock))).catch(handleError);
  return box;
}

function section(id, title, ...children) {
  return h("section", { "aria-labelledby": id }, h("h2", { id, text: title }), ...children);
}

function daySection(clock) {
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  const current = clock.time_zone || browserZone;
  const zone = h("select", { id: "time-zone" },
    [...new Set([current, ...zones])].sort().map((name) => h("option", { value: name, selected: name === current }, name)));
  const allDay = h("input", { type: "checkbox", id: "waking-all-day", checked: !clock.waking });
  const from = h("input", { type: "time", id: "waking-from", value: clock.waking ? clock.waking.from : "08:00", required: true });
  const to = h("input", { type: "time", id: "waking-to", value: clock.waking ? clock.waking.to : "22:00", required: true });
  const hours = h("div", { class: "waking-hours", hidden: allDay.checked },
    h("div", { class: "field" }, h("label", { for: "waking-from", text: t("clock.from") }), from),
    h("div", { class: "field" }, h("label", { for: "waking-to", text: t("clock.to") }), to));
  allDay.addEventListener("change", () => { hours.hidden = allDay.checked; });
  const note = h("p", { class: "muted", role: "status" });
  const form = h("form", { class: "card-panel", onsubmit: async (event) => {
    event.preventDefault();
    try {
      const changed = saved(await api.setClock({ time_zone: zone.value,
        waking: allDay.checked ? null : { from: from.value, to: to.value } }));
      note.textContent = changed.waking
        ? t("clock.saved", { from: changed.waking.from, to: changed.waking.to, zone: changed.time_zone })
        : t("clock.savedAllDay", { zone: changed.time_zone });
    } catch (error) { handleError(error); }
  } }, h("p", { text: t("clock.dayText") }),
  h("div", { class: "field" }, h("label", { for: "time-zone", text: t("clock.zone") }), zone),
  h("div", { class: "field check" }, allDay, h("label", { for: "waking-all-day", text: t("clock.allDay") })),
  hours, h("button", { type: "submit", class: "primary" }, t("clock.save")), note);
  return section("s-day", t("clock.day"), form);
}

function vacationSection(clock) {
  const box = h("div", { class: "card-panel" });
  const draw = (current) => {
    const vacation = current.vacation;
    const left = h("p", { text: t("vacation.left", { left: vacation.days_left, total: vacation.days_a_year,
      date: new Date(vacation.refills).toLocaleDateString(language()) }) });
    const change = async (call) => {
      try { draw(saved(await call())); } catch (error) { handleError(error); }
    };
    if (vacation.until) {
      box.replaceChildren(h("p", { class: "vacation-state", role: "status", text: t("vacation.away", { until: when(vacation.until) }) }), left,
        h("button", { type: "button", onclick: () => change(api.endVacation) }, t("vacation.end")));
      return;
    }
    const most = Math.min(14, vacation.days_left);
    const days = h("input", { type: "number", id: "vacation-days", min: 1, max: Math.max(most, 1), value: Math.min(7, Math.max(most, 1)), required: true });
    box.replaceChildren(h("p", { class: "vacation-state", role: "status", text: t("vacation.home") }), left,
      h("form", { onsubmit: (event) => { event.preventDefault(); change(() => api.startVacation(Number(days.value))); } },
        h("div", { class: "field" }, h("label", { for: "vacation-days", text: t("vacation.days") }), days),
        h("button", { type: "submit", class: "primary", disabled: most < 1 }, t("vacation.start"))));
  };
  draw(clock);
  return section("s-vacation", t("vacation.title"), box);
}

function automaticSection(clock) {
  const box = (id, key, field) => {
    const input = h("input", { type: "checkbox", id, checked: clock[field] });
    input.addEventListener("change", async () => {
      try { saved(await api.setClock({ [field]: input.checked })); } catch (error) { input.checked = !input.checked; handleError(error); }
    });
    return h("div", { class: "field check" }, input, h("label", { for: id, text: t(key) }));
  };
  return section("s-auto", t("auto.title"), box("forced-moves", "auto.forced", "forced_moves"),
    box("choose-ahead", "auto.preselect", "preselect"));
}

function digestSection(clock) {
  const hour = h("select", { id: "digest-hour" }, h("option", { value: "", selected: clock.digest_hour === null }, t("digest.off")),
    Array.from({ length: 24 }, (_, n) => h("option", { value: String(n), selected: clock.digest_hour === n }, `${String(n).padStart(2, "0")}:00`)));
  hour.addEventListener("change", async () => {
    try { saved(await api.setClock({ digest_hour: hour.value === "" ? null : Number(hour.value) })); } catch (error) { handleError(error); }
  });
  return section("s-digest", t("digest.title"), h("div", { class: "field" }, h("label", { for: "digest-hour", text: t("digest.label") }), hour));
}

// ---------------------------------------------------------------- at the table
// Marks beside a seat: its player is away, and what its time bank holds.
export function seatClockBadges(seat) {
  const away = seat.vacation_until && Date.parse(seat.vacation_until) > Date.now();
  return [away ? h("span", { class: "badge vacation", text: t("seat.vacation", { until: when(seat.vacation_until) }) }) : null,
    seat.time_left !== null && seat.time_left !== undefined
      ? h("span", { class: "seat-bank", text: t("seat.bank", { time: duration(seat.time_left) }) }) : null];
}

// "Your turn: 3 h of your day left": the waking time from now to the deadline.
// `shown`: the time left already on screen ("24 h left"), if any: the same time is not said again.
export function dayLeftNote(view, shown = null) {
  if (!view.your_waking || !view.your_waking.length) return null;
  const now = Date.now();
  const seconds = view.your_waking.reduce((sum, stretch) =>
    sum + Math.max(0, Date.parse(stretch.to) - Math.max(now, Date.parse(stretch.from))), 0) / 1000;
  const time = duration(seconds);
  if (shown && shown.textContent.startsWith(`${time} `)) return null;
  return h("p", { class: "day-left", id: "day-left", text: t("day.left", { time }) });
}

// The card chosen ahead for the next turn: offered while it is not the player's turn, if they
// turned choosing ahead on. Resolves to the box, or null.
export async function chooseAheadBox(view, cardLabel) {
  const seat = view.your_seat === null ? null : view.seats[view.your_seat];
  if (view.status !== "active" || !seat || seat.standin || (view.to_act || []).includes(view.your_seat)
      || !(view.hand || []).length) return null;
  let chosen;
  try {
    if (!(await myClock()).preselect) return null;
    chosen = (await api.preselection(view.id)).action;
  } catch (error) { handleError(error); return null; }
  const cards = view.hand;
  const select = h("select", { id: "ahead-card" }, h("option", { value: "" }, t("ahead.none")),
    cards.map((card, index) => h("option", { value: String(index), selected: !!chosen && chosen.card === card }, cardLabel(card))));
  const note = h("p", { class: "muted", role: "status", text: chosen ? t("ahead.chosen", { card: cardLabel(chosen.card) }) : t("ahead.cleared") });
  const form = h("form", { class: "card-panel", onsubmit: async (event) => {
    event.preventDefault();
    try {
      if (select.value === "") {
        await api.clearPreselection(view.id);
        note.textContent = t("ahead.cleared");
      } else {
        const card = cards[Number(select.value)];
        await api.preselect(view.id, { type: "play", card });
        note.textContent = t("ahead.chosen", { card: cardLabel(card) });
      }
    } catch (error) { handleError(error); }
  } }, h("p", { class: "muted", text: t("ahead.text") }),
  h("div", { class: "field" }, h("label", { for: "ahead-card", text: t("ahead.card") }), select),
  h("button", { type: "submit" }, t("ahead.choose")), note);
  return h("section", { class: "choose-ahead", "aria-labelledby": "ahead-title" }, h("h2", { id: "ahead-title", text: t("ahead.title") }), form);
}
