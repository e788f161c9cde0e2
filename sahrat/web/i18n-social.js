// Words of the table's social side and of the Buraco table's layout: play
// again, quick reactions and phrases (Gulf Arabic first), leaving, the chat
// drawer, and the end-of-hand summary. Merged into i18n.js's table.

export const SOCIAL_STRINGS = {
  // Play again (the end card)
  "rematch.play": ["نلعب مرة ثانية", "Play again"],
  "rematch.withdraw": ["تراجع", "Take it back"],
  "rematch.accepted": ["وافقت ✓", "You accepted ✓"],
  "rematch.waiting": ["ننتظر: {names}", "Waiting for: {names}"],
  "rematch.others": ["يبون يلعبون مرة ثانية: {names}", "Want to play again: {names}"],
  "rematch.starting": ["اللعبة الجديدة تبدأ…", "The new game is starting…"],
  "rematch.badge": ["مرة ثانية", "Rematch"],
  "end.watchReplay": ["شوف الإعادة", "Watch the replay"],

  // Quick reactions (emoji) and phrases
  "react.open": ["ردود سريعة", "Quick reactions"],
  "react.emoji": ["وجوه", "Emoji"],
  "react.phrases": ["عبارات", "Phrases"],
  "react.toTeam": ["لشريكي بس", "To my partner only"],
  "react.mute": ["اكتم", "Mute"],
  "react.muteTitle": ["اكتم لاعب (ما تشوف ردوده ولا رسايله)", "Mute a player (hide their reactions and messages)"],
  "react.muted": ["مكتوم: {name}", "Muted: {name}"],
  "react.unmuted": ["رجع: {name}", "Unmuted: {name}"],
  "react.clap": ["تصفيق", "Applause"],
  "react.laugh": ["ضحك", "Laughing"],
  "react.fire": ["نار", "Fire"],
  "react.wow": ["واو", "Wow"],
  "react.sad": ["زعلان", "Sad"],
  "react.angry": ["معصّب", "Angry"],
  "phrase.yalla": ["يلا يلا!", "Come on!"],
  "phrase.well_played": ["كفو!", "Well played!"],
  "phrase.unlucky": ["هاردلك", "Bad luck"],
  "phrase.sorry": ["السموحة", "Sorry"],
  "phrase.thanks": ["مشكور", "Thanks"],
  "phrase.good_game": ["لعبة حلوة", "Good game"],
  "error.reaction_rate": ["شوي شوي على الردود، انتظر شوي", "Too many reactions: wait a little"],

  // Leaving, and who left
  "leave.title": ["تطلع من اللعبة؟", "Leave the game?"],
  "leave.bot": ["اللعبة شغالة: لو طلعت يكمل لاعب آلي مكانك.", "The game is on: if you leave, a bot plays your seat."],
  "leave.last": ["أنت آخر واحد على الطاولة: لو طلعت تتسكر اللعبة.", "You are the last person at the table: if you leave, the game closes."],
  "leave.coins": ["لو طلعت يلعب السيرفر مكانك وما يرجع لك الرهان.", "If you leave, the server plays your seat and your stake is lost."],
  "leave.yes": ["اطلع", "Leave"],
  "leave.no": ["كمّل اللعب", "Stay"],
  "left.toast": ["{name} طلع من الطاولة", "{name} left the table"],
  "left.list": ["طلعوا: {names}", "Left: {names}"],
  "room.autofill": ["لو ما دخل أحد خلال ثواني، يكمّل لاعبين آليين", "If nobody joins within a few seconds, bots take the free seats"],

  // The chat drawer on a phone
  "chat.open": ["الشات", "Chat"],
  "chat.close": ["سكّر الشات", "Close chat"],
  "chat.unread": ["رسايل جديدة: {n}", "New messages: {n}"],

  // The Buraco table
  "bu.meldPoints": ["{n} نقطة", "{n} pts"],
  "bu.toCanasta": ["{n}/7", "{n}/7"],
  "bu.thisHand": ["هالجولة: {n}", "This hand: {n}"],
  "bu.thisHandLong": ["نقاط الجولة لحد الحين (النازل والكاناسترات)", "This hand so far (melded cards and canastas)"],
  "bu.moreCards": ["+{n}", "+{n}"],
  "bu.summary.title": ["نهاية الجولة {n}", "End of hand {n}"],
  "bu.summary.canastas": ["الكاناسترات", "Canastas"],
  "bu.summary.canastaCount": ["{clean} ليمبا · {dirty} سوجا", "{clean} clean · {dirty} dirty"],
  "bu.summary.melded": ["النازل", "Melded"],
  "bu.summary.inHand": ["الباقي في اليد", "Left in hand"],
  "bu.summary.bonuses": ["المكافآت", "Bonuses"],
  "bu.summary.morto": ["المورتو", "Morto"],
  "bu.summary.mortoTaken": ["انأخذ", "taken"],
  "bu.summary.handTotal": ["مجموع الجولة", "Hand total"],
  "bu.summary.matchTotal": ["مجموع المباراة", "Match total"],
  "bu.summary.next": ["تمام", "OK"],
  "bu.summary.wentOut": ["باتيدا: {side}", "Went out: {side}"],
  "bu.summary.stockOut": ["خلصت الكومة", "The stock ran out"],
};
