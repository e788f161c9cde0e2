// The words of leaderboards, profiles and friends: Arabic first, then English.
// They live here with their own lookup, tp(), until i18n.js merges PEOPLE_STRINGS
// into its table like the others; a missing key is logged as i18n.js logs one.

import { lang, t, has } from "./i18n.js";
import { accountError } from "./auth.js";
import { westernDigits } from "./i18n-table.js";

export const PEOPLE_STRINGS = {
  "people.leaderboard": ["المتصدرين", "Leaderboard"],
  "people.profile": ["ملفي", "My profile"],
  "people.friends": ["الأصدقاء", "Friends"],
  "people.nav": ["الناس", "People"],

  "board.all": ["كل الأوقات", "All time"],
  "board.week": ["هالأسبوع", "This week"],
  "board.byRating": ["بالتقييم", "By rating"],
  "board.byWins": ["بالفوز", "By wins"],
  "board.rank": ["المركز", "Rank"],
  "board.player": ["اللاعب", "Player"],
  "board.rating": ["التقييم", "Rating"],
  "board.games": ["الألعاب", "Games"],
  "board.wins": ["الفوز", "Wins"],
  "board.you": ["مركزك", "Your rank"],
  "board.notOn": ["تظهر هنا بعد {n} ألعاب مقيّمة", "You appear here after {n} rated games"],
  "board.empty": ["ما فيه أحد هنا بعد: يظهر اللاعب بعد {n} ألعاب مقيّمة", "Nobody here yet: a player appears after {n} rated games"],
  "board.page": ["صفحة {page} من {pages}", "Page {page} of {pages}"],
  "board.prev": ["السابق", "Previous"],
  "board.next": ["التالي", "Next"],
  "board.about": ["التقييم محسوب بحذر: يرتفع لما تتأكد مهارتك. الألعاب المقيّمة كلها بين حسابات مسجّلة بلا لاعب آلي.", "Ratings are conservative: they rise as your skill becomes certain. Rated games are between registered accounts only, with no bot."],
  "rating.provisional": ["مبدئي", "Provisional"],
  "rating.provisionalAbout": ["تقييم مبدئي: أقل من ١٠ ألعاب مقيّمة", "Provisional: fewer than 10 rated games"],

  "profile.memberSince": ["عضو من", "Member since"],
  "profile.played": ["لعب", "Played"],
  "profile.won": ["فاز", "Won"],
  "profile.rank": ["المركز", "Rank"],
  "profile.noRating": ["بدون تقييم بعد", "Not rated yet"],
  "profile.lastGames": ["آخر الألعاب", "Last games"],
  "profile.noGames": ["ما لعب أي لعبة بعد", "No games yet"],
  "profile.won.game": ["فوز", "Won"],
  "profile.lost.game": ["خسارة", "Lost"],
  "profile.left": ["طلع", "Left"],
  "profile.unrated": ["غير مقيّمة", "Unrated"],
  "profile.edit": ["عدّل ملفك", "Edit your profile"],
  "profile.name": ["الاسم", "Name"],
  "profile.saveName": ["غيّر الاسم", "Change name"],
  "profile.nameOnce": ["تقدر تغيّر اسمك مرة كل ٣٠ يوم", "You can change your name once every 30 days"],
  "profile.nameNext": ["تقدر تغيّر اسمك مرة ثانية من {date}", "You can change your name again from {date}"],
  "profile.avatar": ["الصورة", "Avatar"],
  "profile.saved": ["انحفظ", "Saved"],
  "profile.addFriend": ["أضفه صديق", "Add as a friend"],
  "profile.block": ["احظر", "Block"],
  "profile.notFound": ["ما فيه لاعب بهالاسم", "No player by that name"],
  "profile.guest": ["الضيوف ما لهم ملف. سجّل حساب عشان يصير لك ملف وتقييم وأصدقاء.", "Guests have no profile. Register to get a profile, a rating and friends."],

  "friends.add": ["أضف صديق", "Add a friend"],
  "friends.byName": ["اسم اللاعب", "Player's name"],
  "friends.send": ["أرسل الطلب", "Send request"],
  "friends.sent": ["انرسل طلب الصداقة", "Friend request sent"],
  "friends.nowFriends": ["صرتوا أصدقاء", "You are friends now"],
  "friends.incoming": ["طلبات لك", "Requests to you"],
  "friends.outgoing": ["طلباتك", "Your requests"],
  "friends.list": ["أصدقاؤك", "Your friends"],
  "friends.blocked": ["المحظورين", "Blocked"],
  "friends.none": ["ما عندك أصدقاء بعد. أضف صديق باسمه.", "No friends yet. Add one by name."],
  "friends.accept": ["اقبل", "Accept"],
  "friends.refuse": ["ارفض", "Refuse"],
  "friends.cancel": ["الغِ", "Cancel"],
  "friends.remove": ["احذف", "Remove"],
  "friends.block": ["احظر", "Block"],
  "friends.unblock": ["الغِ الحظر", "Unblock"],
  "friends.blockAbout": ["المحظور ما يقدر يرسل لك طلبات ولا دعوات، وما تشوف كلامه.", "A blocked player cannot send you requests or invitations, and you do not see their chat."],

  "presence.online": ["متصل", "Online"],
  "presence.offline": ["غير متصل", "Offline"],
  "presence.private": ["على طاولة خاصة", "At a private table"],
  "presence.atTable": ["يلعب {game}", "Playing {game}"],
  "presence.watching": ["يتفرج على {game}", "Watching {game}"],
  "presence.join": ["انضم", "Join"],
  "presence.watch": ["تفرّج", "Watch"],
  "invite.title": ["الدعوات", "Invitations"],
  "invite.private": ["يدعوك لطاولة {game} خاصة", "invites you to a private {game} table"],
  "invite.public": ["يدعوك لطاولة {game}", "invites you to a {game} table"],
  "invite.join": ["انضم", "Join"],
  "invite.dismiss": ["تجاهل", "Dismiss"],
  "invite.friends": ["ادعُ صديق", "Invite a friend"],
  "invite.none": ["ما فيه أصدقاء متصلين الحين", "No friends online right now"],
  "invite.send": ["ادعُ", "Invite"],
  "invite.sent": ["انرسلت الدعوة", "Invitation sent"],
  "seat.addFriend": ["أضف صديق", "Add friend"],
  "seat.block": ["احظر", "Block"],
  "seat.blocked": ["انحظر", "Blocked"],
  "invite.error.invite_self": ["ما تقدر تدعو نفسك", "You cannot invite yourself"],
  "invite.error.not_friends": ["تقدر تدعو أصدقاءك بس", "You can invite only your friends"],
  "invite.error.blocked": ["أحدكم حاظر الثاني", "One of you has blocked the other"],
  "invite.error.invitee_offline": ["صديقك غير متصل", "Your friend is not online"],
  "invite.error.table_started": ["بدأت اللعبة", "The game has started"],
  "invite.error.table_full": ["الطاولة مليانة", "The table is full"],
  "invite.error.already_at_table": ["صديقك على الطاولة", "Your friend is at the table already"],
  "invite.error.invite_rate": ["دعوات كثيرة، انتظر {n} ث", "Too many invitations: wait {n} s"],
  "invite.error.not_seated": ["ادعُ من مقعدك على الطاولة", "Invite from your seat at the table"],

  "people.error.cannot_friend_self": ["ما تقدر تضيف نفسك", "You cannot add yourself"],
  "people.error.cannot_block_self": ["ما تقدر تحظر نفسك", "You cannot block yourself"],
  "people.error.you_blocked_them": ["حاظر هاللاعب: الغِ الحظر أول", "You have blocked this player: unblock them first"],
  "people.error.blocked": ["هاللاعب ما يستقبل طلباتك", "This player does not take your requests"],
  "people.error.already_friends": ["أنتم أصدقاء من قبل", "You are friends already"],
  "people.error.already_requested": ["طلبك ينتظر الرد", "Your request is waiting for an answer"],
  "people.error.already_blocked": ["محظور من قبل", "Blocked already"],
  "people.error.no_such_request": ["ما فيه طلب", "No such request"],
  "people.error.not_friends": ["مو أصدقاء", "You are not friends"],
  "people.error.not_blocked": ["مو محظور", "Not blocked"],
  "people.error.no_such_player": ["ما فيه حساب بهالاسم", "No account by that name"],
  "people.error.guest": ["للحسابات المسجّلة: سجّل حساب أول", "For registered accounts: register first"],
  "people.error.name_too_soon": ["غيّرت اسمك قريب: تقدر مرة كل ٣٠ يوم", "You changed your name recently: once every 30 days"],
  "people.error.bad_avatar": ["هالصورة مو من الصور المتاحة", "That avatar is not one of the choices"],
  "people.error.too_many": ["طلبات كثيرة، انتظر {n} ث", "Too many requests: wait {n} s"],
};

const missing = new Set();

/** The words of `key` in the page's language ({placeholders} filled); t()'s table first. */
export function tp(key, params) {
  const entry = PEOPLE_STRINGS[key];
  if (!entry) {
    if (has(key)) return t(key, params);
    if (!missing.has(key)) {
      missing.add(key);
      console.warn(`i18n: missing key ${key}`);
    }
    return key;
  }
  let text = westernDigits(entry[lang() === "ar" ? 0 : 1]);
  for (const [name, value] of Object.entries(params || {})) text = text.replaceAll(`{${name}}`, String(value));
  return text;
}

/** The words for a refusal of these routes: its own code's, else the accounts' (names). */
export function peopleError(data) {
  const code = data && data.code;
  const key = `people.error.${code}`;
  if (Object.hasOwn(PEOPLE_STRINGS, key)) return tp(key, { n: data.retry_after ?? "" });
  return accountError(data);
}
