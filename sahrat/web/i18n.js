// Every word on screen, Arabic first (the glossary's words: spec/glossary.md)
// and English. t("key", {name}) fills {name} placeholders. The choice of
// language is remembered in localStorage; Arabic is right-to-left.

import { ACCOUNT_STRINGS } from "./i18n-accounts.js";
import { TABLE_STRINGS, pluralForm, westernDigits } from "./i18n-table.js";
import { SOCIAL_STRINGS } from "./i18n-social.js";

const LANG_KEY = "sahrat.lang";

const STRINGS = {
  ...ACCOUNT_STRINGS,
  ...TABLE_STRINGS,
  ...SOCIAL_STRINGS,
  "app.name": ["سهرات", "Sahrat"],
  "app.title": ["سهرات · جاكارو وبوراكو", "Sahrat · Jackaroo & Buraco"],
  "nav.lobby": ["الصالة", "Lobby"],
  "lang.switch": ["English", "العربية"],
  "link.idle": ["…", "…"],
  "link.connecting": ["يتصل…", "Connecting…"],
  "link.open": ["متصل", "Online"],
  "link.closed": ["انقطع الاتصال، نعيد المحاولة…", "Offline, retrying…"],

  "game.jackaroo": ["جاكارو", "Jackaroo"],
  "game.buraco": ["بوراكو", "Buraco"],
  "kind.free": ["طاولة مجانية", "Free table"],
  "kind.private": ["طاولة خاصة", "Private table"],
  "kind.coin": ["طاولة عملات", "Coin table"],
  "status.waiting": ["تنتظر لاعبين", "Waiting"],
  "status.seeding": ["تخلط الورق", "Shuffling"],
  "status.playing": ["اللعب جارٍ", "Playing"],
  "status.finished": ["انتهت", "Finished"],
  "status.closed": ["مقفلة", "Closed"],

  // Lobby
  "lobby.tagline": ["جاكارو وبوراكو مع الربع، مع ناس جدد، أو مع لاعب آلي", "Jackaroo and Buraco with friends, new faces, or bots"],
  "lobby.playNow": ["العب الآن: {game}", "Play now: {game}"],
  "lobby.codeLabel": ["رمز طاولة خاصة", "Private table code"],
  "lobby.joinCode": ["ادخل", "Join"],
  "lobby.tables": ["الطاولات المفتوحة", "Open tables"],
  "lobby.noTables": ["ما فيه طاولات مفتوحة الحين. افتح وحدة أو اضغط «العب الآن».", "No open tables right now. Create one or press “Play now”."],
  "lobby.join": ["اجلس", "Join"],
  "lobby.seats": ["الكراسي", "Seats"],
  "lobby.turnTime": ["مؤقّت الدور", "Turn clock"],
  "lobby.seconds": ["{n} ث", "{n} s"],

  // Create a table
  "create.title": ["افتح طاولة", "Create a table"],
  "create.game": ["اللعبة", "Game"],
  "create.preset": ["القوانين", "Rules"],
  "create.customise": ["عدّل القوانين", "Adjust the rules"],
  "create.presetValue": ["الأصل", "preset"],
  "create.seats": ["عدد اللاعبين", "Players"],
  "create.seats4": ["٤ لاعبين (فريقين)", "4 players (2 teams)"],
  "create.seats2": ["لاعبين اثنين", "2 players"],
  "create.turn": ["مؤقّت الدور", "Turn clock"],
  "create.private": ["طاولة خاصة", "Private table"],
  "create.privateAbout": ["ما تظهر في الصالة؛ يدخلها من عنده الرمز أو الرابط، وأنت المضيف توزّع الكراسي.", "Not listed; players join by code or link, and you, the host, choose the seats."],
  "create.submit": ["افتح الطاولة", "Create table"],

  "preset.sahrat": ["قوانين سهرات", "Sahrat rules"],
  "preset.classic": ["جاكارو الكلاسيكية", "Classic Jackaroo"],
  "preset.complex": ["جاكارو كمبلكس", "Jackaroo Complex"],
  "preset.sahrat.about": ["الشايب ياكل اللي يتخطاه، والعشرة تقدر تحرق ورقة من اللي بعدك", "The King sweeps, a ten may burn the next player's card"],
  "preset.classic.about": ["حواجز، ٤ أوراق كل جولة، والشايب يمشي ١٣ بس", "Barriers, 4 cards a round, the King just moves 13"],
  "preset.complex.about": ["حواجز، أي خانة بداية تحمي، والشايب يكسر الحواجز", "Barriers, every start square protects, the King breaks barriers"],

  "opt.jackaroo.deal": ["التوزيع", "Deal"],
  "opt.jackaroo.deal.5-4-4": ["٥ ثم ٤ ثم ٤ أوراق من كوتشينة كاملة", "5, then 4, then 4 cards from a full deck"],
  "opt.jackaroo.deal.4-each": ["٤ أوراق لكل لاعب كل جولة", "4 cards each, every round"],
  "opt.jackaroo.pass_own": ["تخطي بلياتك", "Passing your own marbles"],
  "opt.jackaroo.pass_own.true": ["البلية تتخطى بليات لونها", "A marble may pass its own colour"],
  "opt.jackaroo.pass_own.false": ["البلية ما تتخطى بليات لونها", "A marble may not pass its own colour"],
  "opt.jackaroo.barrier": ["الحاجز", "Barriers"],
  "opt.jackaroo.barrier.true": ["بليتين متلاصقتين تحمي الأمامية (حاجز)", "Two adjacent marbles protect the front one"],
  "opt.jackaroo.barrier.false": ["ما فيه حواجز", "No barriers"],
  "opt.jackaroo.start_guard": ["الحماية على خانة البداية", "Start-square protection"],
  "opt.jackaroo.start_guard.own": ["البلية محمية على خانة بدايتها بس", "Safe on its own start square only"],
  "opt.jackaroo.start_guard.any": ["البلية محمية على أي خانة بداية", "Safe on any start square"],
  "opt.jackaroo.king": ["الشايب", "The King"],
  "opt.jackaroo.king.plain": ["الشايب يمشي ١٣ بس", "The King just moves 13"],
  "opt.jackaroo.king.sweep": ["الشايب ياكل كل بلية يتخطاها", "The King captures every marble it passes"],
  "opt.jackaroo.king.breaker": ["الشايب ياكل ويكسر الحواجز", "The King captures and breaks barriers"],
  "opt.jackaroo.five": ["الخمسة", "The five"],
  "opt.jackaroo.five.own": ["الخمسة تحرك بلياتك بس", "A five moves your own marbles"],
  "opt.jackaroo.five.any": ["الخمسة تحرك أي بلية على المسار", "A five moves any marble on the track"],
  "opt.jackaroo.ten": ["العشرة", "The ten"],
  "opt.jackaroo.ten.move": ["العشرة تمشي ١٠", "A ten moves 10"],
  "opt.jackaroo.ten.move-or-burn": ["العشرة تمشي ١٠ أو تحرق ورقة من اللي بعدك", "A ten moves 10 or burns the next player's card"],
  "opt.jackaroo.stuck_hand": ["إذا ما عندك لعبة", "With no legal move"],
  "opt.jackaroo.stuck_hand.burn-one": ["تحرق ورقة وحدة تختارها", "Burn one card of your choice"],
  "opt.jackaroo.stuck_hand.burn-all": ["إذا بلياتك كلها في القاعدة تحرق كل أوراقك", "All marbles in base: burn the whole hand"],

  "opt.buraco.target": ["الهدف", "Target"],
  "opt.buraco.target.1000": ["اللعب إلى ١٠٠٠ نقطة", "Play to 1000 points"],
  "opt.buraco.target.2000": ["اللعب إلى ٢٠٠٠ نقطة", "Play to 2000 points"],
  "opt.buraco.target.3000": ["اللعب إلى ٣٠٠٠ نقطة", "Play to 3000 points"],
  "opt.buraco.sets": ["المجموعات", "Sets"],
  "opt.buraco.sets.false": ["سلاسل بس (نفس النقش بالترتيب)", "Sequences only (one suit, in order)"],
  "opt.buraco.sets.true": ["مسموح بالمجموعات (نفس الرقم)", "Sets allowed (same rank)"],
  "opt.buraco.closed": ["كومة الرمي", "Discard pile"],
  "opt.buraco.closed.false": ["تاخذ كومة الرمي متى ما تبي", "Take the discard pile any time"],
  "opt.buraco.closed.true": ["بوراكو مغلق: تاخذ كومة الرمي بس إذا نزّلت ورقتها فورًا", "Closed Buraco: take the pile only to meld its top card at once"],
  "buraco.target": ["إلى {n}", "to {n}"],
  "buraco.closedShort": ["بوراكو مغلق", "closed"],

  // Waiting room
  "room.seats": ["الكراسي", "Seats"],
  "room.seat": ["كرسي {n}", "Seat {n}"],
  "room.teamA": ["الفريق الأول", "Team A"],
  "room.teamB": ["الفريق الثاني", "Team B"],
  "room.code": ["الرمز", "Code"],
  "room.link": ["رابط الدعوة", "Invitation link"],
  "room.copy": ["انسخ الرابط", "Copy link"],
  "room.copied": ["تم نسخ الرابط ✓", "Link copied ✓"],
  "room.sitHere": ["اجلس هنا", "Sit here"],
  "room.whoSits": ["من يجلس على كرسي {n}", "Who sits in seat {n}"],
  "room.assign": ["ثبّت الكراسي", "Apply seats"],
  "room.assignNeedsIds": ["توزيع الكراسي يحتاج تحديث من السيرفر؛ كل لاعب يقدر يختار كرسي فاضي.", "Seat assignment needs a server update; each player may pick a free seat."],
  "room.bots": ["كمّل بلاعبين آليين", "Fill with bots"],
  "room.start": ["ابدأ اللعب", "Start"],
  "room.turnTime": ["مؤقّت الدور {n} ث", "Turn clock {n} s"],
  "room.hostHint": ["أنت المضيف: رتّب الكراسي (من يشارك من)، ثم ابدأ.", "You are the host: arrange the seats (who partners whom), then start."],
  "room.waitHost": ["ننتظر المضيف يبدأ اللعب.", "Waiting for the host to start."],
  "room.waitFull": ["يبدأ اللعب أول ما تكتمل الكراسي.", "The game starts as soon as every seat is taken."],
  "room.seeding": ["نخلط الورق بعدل…", "Shuffling fairly…"],
  "room.seedingAbout": ["السيرفر التزم ببذرته قبل ما يشوف بذوركم؛ كل لاعب يضيف بذرة عشوائية من جهازه.", "The server committed to its seed before seeing yours; each player adds a random seed from their device."],

  // Seats
  "seat.empty": ["كرسي فاضي", "Empty seat"],
  "seat.cards": ["{n} ورقة", "{n} cards"],
  "badge.you": ["أنت", "You"],
  "badge.partner": ["الشريك", "Partner"],
  "badge.bot": ["لاعب آلي", "Bot"],
  "badge.away": ["غايب", "Away"],
  "badge.offline": ["انقطع", "Disconnected"],
  "badge.dealer": ["الموزّع", "Dealer"],
  "badge.dealerLong": ["وزّع هالجولة", "Dealt this round"],
  clock: ["مؤقّت الدور", "Turn clock"],

  // Table
  "table.leave": ["اطلع من الطاولة", "Leave table"],
  "table.toLobby": ["الصالة", "Lobby"],
  "table.leaveFirst": ["اطلع من الطاولة أول (زر «اطلع من الطاولة»).", "Leave the table first (the “Leave table” button)."],
  "table.lastMoves": ["آخر الحركات", "Last moves"],
  "table.noMoves": ["ما فيه حركات بعد.", "No moves yet."],
  "table.auto": ["تلقائي", "auto"],
  "table.autoLong": ["خلص الوقت واللعبة لعبها السيرفر", "The clock ran out; the server played this turn"],
  "turn.other": ["دور {name}", "{name}'s turn"],
  "turn.sent": ["أرسلنا حركتك…", "Move sent…"],
  "turn.over": ["انتهى اللعب", "The game is over"],
  "turn.dealing": ["يوزّع الورق…", "Dealing…"],

  // Jackaroo
  "jk.boardLabel": ["لوحة الجاكارو", "Jackaroo board"],
  "jk.hand": ["أوراقك", "Your cards"],
  "jk.noCards": ["ما عندك أوراق هالحين", "No cards in hand"],
  "jk.stock": ["الكومة: {n}", "Stock: {n}"],
  "jk.stage.card": ["دورك: اختر ورقة", "Your turn: choose a card"],
  "jk.stage.stuck": ["ما عندك لعبة: اختر ورقة تحرقها", "No move on the board: choose a card to burn"],
  "jk.stage.marble": ["اختر بلية تمشيها", "Choose a marble to move"],
  "jk.stage.square": ["اختر وين تروح البلية", "Choose where it goes"],
  "jk.stage.swap-target": ["اختر البلية اللي تبدّل معها", "Choose the marble to swap with"],
  "jk.stage.split-marble": ["تقسم السبعة: اختر البلية الثانية", "Split the seven: choose the second marble"],
  "jk.stage.split-square": ["تقسم السبعة: اختر الخانة", "Split the seven: choose its square"],
  "jk.burnNext": ["احرق ورقة من يد اللاعب اللي بعدك", "Burn a card of the next player"],
  "jk.discard": ["احرق {card}", "Burn {card}"],
  "jk.discardAll": ["احرق كل أوراقك", "Burn your whole hand"],
  "jk.cancel": ["إلغاء", "Cancel"],
  "jk.allMoves": ["كل حركات الورقة ({n})", "Every move of this card ({n})"],

  // Buraco
  "bu.us": ["إحنا", "Us"],
  "bu.them": ["هم", "Them"],
  "bu.and": [" و", " & "],
  "bu.sideMelds": ["تركيبات {side}", "Melds of {side}"],
  "bu.sideN": ["الفريق {n}", "Side {n}"],
  "bu.points": ["{n} نقطة", "{n} points"],
  "bu.score": ["النتيجة (إلى {n})", "Score (to {n})"],
  "bu.handNumber": ["الجولة {n}", "Hand {n}"],
  "bu.ourMelds": ["تركيباتنا", "Our melds"],
  "bu.theirMelds": ["تركيباتهم", "Their melds"],
  "bu.noMelds": ["ما فيه تركيبات بعد", "No melds yet"],
  "bu.kind.sequence": ["سلسلة", "sequence"],
  "bu.kind.set": ["مجموعة", "set"],
  "bu.canasta.clean": ["كاناسترا ليمبا (نظيفة)", "clean canasta"],
  "bu.canasta.dirty": ["كاناسترا سوجا (متسخة)", "dirty canasta"],
  "bu.stock": ["الكومة: {n}", "Stock: {n}"],
  "bu.pile": ["كومة الرمي: {n}", "Discard pile: {n}"],
  "bu.emptyPile": ["فاضية", "empty"],
  "bu.draw": ["اسحب", "Draw"],
  "bu.take": ["خذ كومة الرمي", "Take the pile"],
  "bu.takeClosed": ["خذها مع تركيبة", "Take it with a meld"],
  "bu.morto": ["المورتو ({side})", "Morto ({side})"],
  "bu.morto.untaken": ["{n} ورقة، ما انأخذ", "{n} cards, untaken"],
  "bu.morto.pending": ["ينأخذ الدور الجاي", "picked up next turn"],
  "bu.morto.taken": ["انأخذ", "taken"],
  "bu.morto.stock": ["صار الكومة", "became the stock"],
  "bu.hand": ["أوراقك", "Your cards"],
  "bu.stage.draw": ["دورك: اسحب من الكومة أو خذ كومة الرمي", "Your turn: draw from the stock or take the pile"],
  "bu.stage.drawClosed": ["دورك: اسحب، أو اختر ورقتين تنزلهم مع ورقة كومة الرمي", "Your turn: draw, or select cards to meld with the pile's top card"],
  "bu.stage.play": ["نزّل تركيبات أو أضف عليها، وبعدين ارمِ ورقة", "Meld or add to melds, then discard a card"],
  "bu.suggestions": ["تركيبات ممكنة:", "Possible melds:"],
  "bu.takeSuggestions": ["تقدر تاخذ كومة الرمي مع:", "You may take the pile with:"],
  "bu.meld": ["نزّل تركيبة ({n})", "Meld ({n})"],
  "bu.discard": ["ارمِ", "Discard"],
  "bu.clear": ["إلغاء الاختيار", "Clear"],
  "bu.addHint": ["أو اضغط على تركيبة من تركيباتنا تضيف عليها", "or press one of our melds to add to it"],
  "bu.addTo": ["أضف إلى التركيبة {n}", "Add to meld {n}"],
  "bu.closedNeedCards": ["بوراكو مغلق: اختر ورقتين من يدك تنزلهم مع ورقة كومة الرمي", "Closed Buraco: select cards to meld with the pile's top card"],
  "bu.results": ["نتائج الجولات", "Hand results"],
  "bu.resultHand": ["الجولة {n}", "Hand {n}"],
  "bu.wentOut": ["باتيدا: {side}", "went out: {side}"],
  "bu.row.canastas_clean": ["كاناسترا ليمبا", "Clean canastas"],
  "bu.row.canastas_dirty": ["كاناسترا سوجا", "Dirty canastas"],
  "bu.row.melded": ["أوراق نازلة", "Melded cards"],
  "bu.row.hand": ["أوراق باقية في اليد", "Cards left in hand"],
  "bu.row.bonus": ["مكافآت", "Bonuses"],
  "bu.row.total": ["مجموع الجولة", "Hand total"],
  "bu.row.running": ["المجموع", "Running total"],

  // Cards, for screen readers
  "card.joker": ["جوكر", "Joker"],
  "card.jokerShort": ["جوكر", "Joker"],
  "rank.A": ["إكة", "Ace"],
  "rank.2": ["٢", "2"],
  "rank.3": ["٣", "3"],
  "rank.4": ["٤", "4"],
  "rank.5": ["٥", "5"],
  "rank.6": ["٦", "6"],
  "rank.7": ["٧", "7"],
  "rank.8": ["٨", "8"],
  "rank.9": ["٩", "9"],
  "rank.T": ["١٠", "10"],
  "rank.J": ["ولد", "Jack"],
  "rank.Q": ["بنت", "Queen"],
  "rank.K": ["شايب", "King"],
  "suit.S": ["سبيت ♠", "of spades ♠"],
  "suit.H": ["هاص ♥", "of hearts ♥"],
  "suit.D": ["ديمن ♦", "of diamonds ♦"],
  "suit.C": ["شريا ♣", "of clubs ♣"],

  // Chat
  "chat.title": ["الشات", "Chat"],
  "chat.table": ["شات الطاولة", "Table chat"],
  "chat.team": ["شات الفريق", "Team chat"],
  "chat.placeholder": ["اكتب للطاولة…", "Write to the table…"],
  "chat.placeholderTeam": ["اكتب لشريكك…", "Write to your partner…"],
  "chat.send": ["أرسل", "Send"],
  "chat.empty": ["ما فيه رسائل بعد", "No messages yet"],

  // Fair shuffle
  "fair.title": ["خلط عادل", "Fair shuffle"],
  "fair.committed": ["ملتزم", "committed"],
  "fair.about": ["قبل أول ورقة، السيرفر نشر بصمة بذرته، وكل لاعب أضاف بذرة. بعد النهاية تقدر تتحقق إن الخلط ما تغيّر.", "Before the first card the server published its seed's hash and every player added a seed. After the end you can check the shuffle was not changed."],
  "fair.commitment": ["التزام السيرفر", "Server commitment"],
  "fair.serverSeed": ["بذرة السيرفر (انكشفت بعد النهاية)", "Server seed (revealed at the end)"],
  "fair.mySeed": ["بذرتك", "Your seed"],
  "fair.clientSeeds": ["بذور اللاعبين", "Players' seeds"],
  "fair.verify": ["تحقق", "Verify"],

  // End of game
  "end.won": ["مبروك! فزتوا", "You won!"],
  "end.lost": ["هالمرة ما ضبطت", "Not this time"],
  "end.winners": ["الفايزين: {names}", "Winners: {names}"],
  "end.score": ["إحنا {us} · هم {them}", "Us {us} · Them {them}"],
  "end.replay": ["إعادة", "Replay"],
  "end.verify": ["تحقق من الخلط", "Verify the shuffle"],
  "end.close": ["شوف الطاولة", "See the table"],

  // Replay
  "replay.title": ["إعادة", "Replay"],
  "replay.loading": ["نحمّل الإعادة…", "Loading the replay…"],
  "replay.failed": ["ما قدرنا نحمّل الإعادة.", "The replay could not be loaded."],
  "replay.first": ["البداية", "First"],
  "replay.prev": ["السابق", "Previous"],
  "replay.next": ["التالي", "Next"],
  "replay.last": ["النهاية", "Last"],
  "replay.play": ["تشغيل", "Play"],
  "replay.pause": ["إيقاف", "Pause"],
  "replay.frame": ["الحركة", "Move"],
  "replay.count": ["الحركة {i} من {n}", "Move {i} of {n}"],
  "replay.start": ["التوزيع الأول", "The first deal"],

  // Errors the server may answer (protocol.py ERRORS)
  "error.malformed": ["رسالة غير مفهومة", "Malformed message"],
  "error.bad_version": ["نسخة البروتوكول غير مدعومة", "Unsupported protocol version"],
  "error.unknown_type": ["رسالة غير معروفة", "Unknown message"],
  "error.too_large": ["الرسالة كبيرة", "Message too large"],
  "error.rate_limited": ["بشويش! رسائل كثيرة", "Slow down: too many messages"],
  "error.not_authenticated": ["ما سجلنا دخولك بعد", "Not signed in yet"],
  "error.bad_field": ["طلب غير صحيح", "Invalid request"],
  "error.no_such_table": ["ما لقينا الطاولة، أو انتهت", "No such table, or it is over"],
  "error.already_seated": ["أنت جالس على طاولة ثانية؛ اطلع منها أول", "You sit at another table: leave it first"],
  "error.not_seated": ["أنت مو جالس على هالطاولة", "You do not sit at this table"],
  "error.table_full": ["الطاولة مليانة", "The table is full"],
  "error.seat_taken": ["الكرسي محجوز", "That seat is taken"],
  "error.not_host": ["هذا للمضيف بس", "Only the host may do that"],
  "error.wrong_phase": ["مو وقتها", "Not possible now"],
  "error.not_your_turn": ["مو دورك", "It is not your turn"],
  "error.illegal_move": ["الحركة مو مسموحة", "Move refused"],
  "error.stale": ["تغيّرت الطاولة، اختر من جديد", "The table moved on: choose again"],
  "error.chat_too_long": ["الرسالة طويلة", "Message too long"],
  "error.chat_rate": ["رسائل كثيرة، انتظر شوي", "Too many messages: wait a little"],
  "error.no_partner": ["ما عندك شريك", "You have no partner"],
  "error.unavailable": ["ما قدرنا نحفظ، حاول مرة ثانية", "Could not save: try again"],
  "error.table_moving": ["الطاولة تنتقل لخادم ثاني، لحظة وترجع", "The table is moving to another server: back in a moment"],

  // Why the rules refused a move: an illegal_move's reason.code ({card}: the card as
  // printed on it; a {verb} picks the key's ".meld" or ".discard" form).
  "refusal.illegal": ["الحركة مو مسموحة", "That move isn't allowed"],
  "refusal.game_over": ["انتهى اللعب", "The game is over"],
  "refusal.no_turn": ["مو دور أحد الحين، انتظر شوي", "Nobody's turn right now: wait a moment"],
  "refusal.not_chance": ["مو وقت الخلط أو التوزيع", "It isn't time to shuffle or deal"],
  "refusal.bad_chance": ["الخلط أو التوزيع مو صحيح", "That shuffle or deal isn't valid"],
  "refusal.not_an_action": ["هذي مو حركة في هاللعبة", "That isn't a move in this game"],
  "refusal.card_not_held": ["ما عندك {card} في يدك", "You don't hold {card}"],
  "refusal.must_burn": ["ما عندك لعبة: لازم تحرق ورقة", "Nothing can move: burn a card"],
  "refusal.must_burn_one": ["ما عندك لعبة: احرق ورقة وحدة، مو كل أوراقك", "Nothing can move: burn one card, not your whole hand"],
  "refusal.must_burn_all": ["ما عندك لعبة: تحرق كل أوراقك", "Nothing can move: burn your whole hand"],
  "refusal.may_not_burn": ["ما يصير تحرق وعندك لعبة", "You can't burn while a card can move"],
  "refusal.nothing_to_burn": ["اللي بعدك ما عنده أوراق تحرقها", "The next player has no card to burn"],
  "refusal.no_such_move": ["الورقة {card} ما تسوي هالحركة هنا", "{card} can't make that move here"],
  "refusal.draw_first": ["اسحب من الكومة أو خذ كومة الرمي أول", "Draw or take the pile first"],
  "refusal.already_drawn": ["سحبت خلاص هالدور", "You have already drawn"],
  "refusal.pile_closed": ["كومة الرمي مقفلة: تاخذها بس إذا نزّلت ورقتها في تركيبة", "The pile is closed: take it only by melding its top card"],
  "refusal.pile_empty": ["كومة الرمي فاضية", "The discard pile is empty"],
  "refusal.pile_open": ["كومة الرمي مفتوحة: خذها أول، وبعدين نزّل", "The pile is open: take it first, then meld"],
  "refusal.not_in_hand": ["هالأوراق مو كلها في يدك", "You don't hold those cards"],
  "refusal.meld_too_short": ["التركيبة لازم تكون 3 أوراق على الأقل", "A meld needs at least 3 cards"],
  "refusal.meld_too_many_wilds": ["ما يصير في التركيبة أكثر من ورقة بديلة وحدة", "A meld may hold only one wild card"],
  "refusal.meld_no_sets": ["المجموعات (نفس الرقم) مو مسموحة في هالطاولة: سلاسل بس", "Sets of one rank aren't played at this table: sequences only"],
  "refusal.meld_mixed_suits": ["السلسلة لازم تكون كلها من نفس الشكل", "A sequence must be all one suit"],
  "refusal.meld_mixed_ranks": ["المجموعة لازم تكون كلها من نفس الرقم", "A set must be all one rank"],
  "refusal.meld_repeated": ["في السلسلة ورقتين بنفس الرقم", "A sequence can't hold the same rank twice"],
  "refusal.meld_gap": ["الأوراق مو متتالية: فيها فراغ ما تسده ورقة بديلة", "The cards don't follow on: there's a gap one wild card can't fill"],
  "refusal.no_such_meld": ["ما عندكم هالتركيبة", "Your side has no such meld"],
  "refusal.last_card_no_canasta": ["ما تقدر تخلص آخر ورقة: ما عندكم كاناسترا للإنهاء", "You can't play your last card: your side has no canasta to go out"],
  "refusal.last_card_no_canasta.meld": ["ما تقدر تنزّل آخر ورقة: ما عندكم كاناسترا للإنهاء", "You can't meld your last card: your side has no canasta to go out"],
  "refusal.last_card_no_canasta.discard": ["ما تقدر ترمي آخر ورقة: ما عندكم كاناسترا للإنهاء", "You can't discard your last card: your side has no canasta to go out"],
  "refusal.last_card_morto_stock": ["ما تقدر تخلص آخر ورقة: المورتو حقكم صار الكومة", "You can't play your last card: your side's morto became the stock"],
  "refusal.last_card_morto_stock.meld": ["ما تقدر تنزّل آخر ورقة: المورتو حقكم صار الكومة", "You can't meld your last card: your side's morto became the stock"],
  "refusal.last_card_morto_stock.discard": ["ما تقدر ترمي آخر ورقة: المورتو حقكم صار الكومة", "You can't discard your last card: your side's morto became the stock"],
  "refusal.last_card_stuck": ["بتبقى معك ورقة وحدة ما تقدر ترميها ولا تنزّلها", "You'd keep one card you could neither discard nor meld"],
};

let current = readLang();
const missing = new Set();

function readLang() {
  try {
    const saved = localStorage.getItem(LANG_KEY);
    if (saved === "ar" || saved === "en") return saved;
  } catch {
    /* no storage: Arabic */
  }
  return "ar";
}

export function lang() {
  return current;
}

/** Switch language, remember it, and turn the page (dir/lang) accordingly. */
export function setLang(value) {
  current = value === "en" ? "en" : "ar";
  try {
    localStorage.setItem(LANG_KEY, current);
  } catch {
    /* remembered for this page only */
  }
  applyLang();
}

export function applyLang() {
  const root = document.documentElement;
  root.lang = current;
  root.dir = current === "ar" ? "rtl" : "ltr";
}

/** The text of `key` in the current language, with {placeholders} filled. */
export function t(key, params) {
  const entry = STRINGS[key];
  if (!entry) {
    if (!missing.has(key)) {
      missing.add(key);
      console.warn(`i18n: missing key ${key}`);
    }
    return key;
  }
  // Western digits in both languages; a count picks its plural form (i18n-table.js).
  let text = westernDigits(pluralForm(key, params && params.n, current) ?? entry[current === "ar" ? 0 : 1]);
  if (params) {
    for (const [name, value] of Object.entries(params)) text = text.replaceAll(`{${name}}`, String(value));
  }
  return text;
}

/** Whether `key` has words (a lookup that, unlike t(), does not count a miss). */
export function has(key) {
  return Object.hasOwn(STRINGS, key);
}

/** Both languages' words for `key`, or null: {ar, en}. */
export function translations(key) {
  const entry = has(key) ? STRINGS[key] : null;
  return entry ? { ar: entry[0], en: entry[1] } : null;
}

/** A moment (epoch seconds) as a short date and time, Western digits in both languages. */
export function formatDate(seconds) {
  if (typeof seconds !== "number") return "";
  const locale = current === "ar" ? "ar-u-nu-latn" : "en-GB";
  return new Date(seconds * 1000).toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" });
}

/** Keys with no entry, seen so far (the browser tests check it stays empty). */
export function missingKeys() {
  return [...missing];
}

applyLang();
