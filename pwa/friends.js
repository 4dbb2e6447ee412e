// Friends (#/friends): your friend link to share, your friends with when each was last active,
// "Challenge" (a game with a seat kept for the friend), block and unblock; a friend link
// (#/friend/<code>) adds its player; and the inbox's invitations with Accept and Decline.
import { t, addStrings, language } from "./i18n.js";
import { api } from "./api.js";
import { h, setPage, gameTypes, shareBox, announce, handleError } from "./ui.js";
import { profileHref } from "./profile.js";
import { challengeToggle } from "./challenge.js";
import { refreshInbox } from "./inbox.js";

addStrings("en", {
  "friends.nav": "Friends",
  "friends.heading": "Friends",
  "friends.yourLink": "Your friend link: whoever opens it becomes your friend",
  "friends.shareText": "Play cards with me on Pöytä",
  "friends.none": "No friends yet: share your link.",
  "friends.lastActive": "last active {when}",
  "friends.neverActive": "not seen lately",
  "friends.remove": "Remove",
  "friends.block": "Block",
  "friends.unblock": "Unblock",
  "friends.blocked": "Blocked players",
  "friends.blockedNote": "They cannot seat you, talk to you, see more than your name or join your games.",
  "friends.added": "{name} is now your friend",
  "friends.invitations": "Invitations",
  "friends.invitedBy": "{name} invites you to {title}",
  "friends.accept": "Accept",
  "friends.decline": "Decline",
  "friends.declined": "Invitation declined",
  "event.declined": "The invitation to seat {seat} was declined: the seat is open again",
});
addStrings("fi", {
  "friends.nav": "Kaverit",
  "friends.heading": "Kaverit",
  "friends.yourLink": "Kaverilinkkisi: joka avaa sen, tulee kaveriksesi",
  "friends.shareText": "Pelataan korttia Pöydässä",
  "friends.none": "Ei vielä kavereita: jaa linkkisi.",
  "friends.lastActive": "viimeksi paikalla {when}",
  "friends.neverActive": "ei näkynyt viime aikoina",
  "friends.remove": "Poista",
  "friends.block": "Estä",
  "friends.unblock": "Poista esto",
  "friends.blocked": "Estetyt pelaajat",
  "friends.blockedNote": "He eivät voi kutsua sinua, puhua sinulle, nähdä muuta kuin nimesi eivätkä liittyä peleihisi.",
  "friends.added": "{name} on nyt kaverisi",
  "friends.invitations": "Kutsut",
  "friends.invitedBy": "{name} kutsuu sinut peliin {title}",
  "friends.accept": "Hyväksy",
  "friends.decline": "Kieltäydy",
  "friends.declined": "Kutsusta kieltäydytty",
  "event.declined": "Kutsusta paikalle {seat} kieltäydyttiin: paikka on taas vapaa",
});

const when = (iso) => new Date(iso).toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" });

// `news`: what just happened ("Anna is now your friend"), said at the top of the page.
export async function friendsPage(news = null) {
  setPage(t("friends.heading"), h("h1", { text: t("friends.heading") }), h("p", { class: "muted", text: t("loading") }));
  const [link, friends, blocked, types] = await Promise.all([api.friendLink(), api.friends(), api.blocks(), gameTypes()]);
  const again = () => friendsPage().catch(handleError);
  setPage(t("friends.heading"), h("h1", { text: t("friends.heading") }),
    news ? h("p", { class: "notice", role: "status", text: news }) : null,
    shareBox({ id: "friend-link", label: t("friends.yourLink"), link: new URL(link.link, location.origin).href,
      title: "Pöytä", text: t("friends.shareText") }),
    friends.length
      ? h("ul", { class: "plain-list friend-list" }, friends.map((friend) => friendItem(friend, types, again)))
      : h("p", { class: "muted", text: t("friends.none") }),
    blocked.length ? h("section", { "aria-labelledby": "blocked-title" },
      h("h2", { id: "blocked-title", text: t("friends.blocked") }),
      h("p", { class: "muted", text: t("friends.blockedNote") }),
      h("ul", { class: "plain-list" }, blocked.map((player) => h("li", {}, player.name, " ",
        h("button", { type: "button", onclick: () => api.unblock(player.id).then(again, handleError) }, t("friends.unblock"))))))
      : null);
}

function friendItem(friend, types, again) {
  const { button, form } = challengeToggle(friend, types);
  return h("li", { class: "friend" },
    h("a", { class: "profile-link", href: profileHref(friend.id), text: friend.name }),
    h("small", { class: "muted", text: friend.last_active
      ? t("friends.lastActive", { when: when(friend.last_active) }) : t("friends.neverActive") }),
    h("div", { class: "button-row" }, button,
      h("button", { type: "button", onclick: () => api.removeFriend(friend.id).then(again, handleError) }, t("friends.remove")),
      h("button", { type: "button", class: "danger", onclick: () => api.block(friend.id).then(again, handleError) }, t("friends.block"))),
    form);
}

// #/friend/<code>: add the link's player, then show the friends.
export async function addFriendPage(code) {
  const friend = await api.addFriend(code);
  history.replaceState(null, "", "#/friends");
  await friendsPage(t("friends.added", { name: friend.name }));
}

// The inbox's invitations (seats kept for you), each with Accept and Decline; null for none.
export function invitationList(lines) {
  const invited = lines.filter((line) => line.invitation);
  if (!invited.length) return null;
  return h("section", { "aria-labelledby": "invitations-title", class: "invitations" },
    h("h2", { id: "invitations-title", text: t("friends.invitations") }),
    h("ul", { class: "plain-list" }, invited.map((line) => h("li", { class: "invitation" },
      h("span", { text: t("friends.invitedBy", { name: line.invitation.from, title: line.title }) }),
      h("div", { class: "button-row" },
        h("button", { type: "button", class: "primary", onclick: () => api.join(line.id, line.invitation.seat)
          .then(() => { location.hash = `#/game/${encodeURIComponent(line.id)}`; }, handleError) }, t("friends.accept")),
        h("button", { type: "button", onclick: () => api.decline(line.id)
          .then(() => { announce(t("friends.declined")); refreshInbox(); }, handleError) }, t("friends.decline")))))));
}
