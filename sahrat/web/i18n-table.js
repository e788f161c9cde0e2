// The words of the table's feel (merged into i18n.js's table): previews of a
// move, burning, the clock, sound, the replay. Arabic first, then English;
// the glossary's words (بلية، البيت، تحرق، تاكل، تقسم السبعة).
//
// PLURALS gives a key its forms by Intl.PluralRules: Arabic has six
// (zero, one, two, few 3–10, many 11–99, other), English two; t() picks one
// whenever the key has forms and its params carry a number `n`.

export const TABLE_STRINGS = {
  "jk.stage.burnOnly": ["ما عندك لعبة على اللوحة: لازم تحرق ورقة ({cards})", "Nothing can move on the board: burn one card ({cards})"],
  "jk.stage.burnAll": ["ما عندك لعبة: تحرق كل أوراقك", "Nothing can move: you burn your whole hand"],
  "jk.stage.tenBurns": ["العشرة هنا ما تمشي بلية: تحرق فيها ورقة من يد {name}", "This ten can't move a marble here: it burns a card from {name}'s hand"],
  "jk.burnFrom": ["احرق ورقة من يد {name}", "Burn a card from {name}'s hand"],
  "jk.why.notTurn": ["مو دورك، انتظر دورك", "It isn't your turn yet"],
  "jk.why.needOut": ["بلياتك كلها في القاعدة: تطلّعها الإكة أو الشايب بس", "All your marbles are in the base: only an Ace or a King brings one out"],
  "jk.why.blocked": ["{card} ما لها حركة الحين: الطريق مسدود أو تتعدى البيت", "{card} has no move now: the way is blocked or overshoots home"],
  "jk.why.mustMove": ["ما يصير تحرق {card} وعندك ورقة تمشي بلية", "You can't burn {card} while another card can move a marble"],
  "jk.pv.capture": ["تاكل بلية {name}", "captures {name}'s marble"],
  "jk.pv.partner": ["تاكل بلية شريكك {name}!", "captures your partner {name}'s marble!"],
  "jk.pv.own": ["تاكل بليتك أنت!", "captures your own marble!"],
  "jk.pv.home": ["تدخل البيت", "enters home"],
  "jk.pv.swap": ["تبدّل مع بلية {name}", "swaps with {name}'s marble"],
  "jk.pv.plain": ["حركة عادية", "a plain move"],
  "jk.pv.armed": ["اضغط مرة ثانية تأكيد: {what}", "Tap again to confirm: {what}"],
  "jk.split.howto": ["السبعة: الرقم على الخانة عدد الخطوات؛ ٧ حركة وحدة، وأقل منها تقسم السبعة على بليتين", "The seven: the number on a square is its steps; 7 is one move, fewer splits the seven over two marbles"],
  "jk.split.marble": ["تقسم السبعة: {used} + {left}، اختر بلية تمشي {left}", "Split seven: {used} + {left}, choose a marble to move {left}"],
  "jk.split.square": ["تقسم السبعة: {used} + {left}، اختر الخانة", "Split seven: {used} + {left}, choose its square"],
  "jk.mv.out": ["{card}: تطلّع بلية", "{card}: bring a marble out"],
  "jk.mv.move": ["{card}: {whose} تمشي {steps}", "{card}: {whose} moves {steps}"],
  "jk.mv.back": ["{card}: {whose} ترجع لورا {steps}", "{card}: {whose} moves back {steps}"],
  "jk.mv.split": ["{card}: تقسم السبعة {a} + {b}", "{card}: split the seven {a} + {b}"],
  "jk.mv.swap": ["{card}: تبديل بليتك مع بلية {name}", "{card}: swap your marble with {name}'s"],
  "jk.mv.burn": ["{card}: تحرق ورقة من يد {name}", "{card}: burn a card from {name}'s hand"],
  "jk.mv.yours": ["بليتك", "your marble"],
  "jk.mv.left": ["بليتك (باقي لها {n} للبيت)", "your marble ({n} from home)"],
  "jk.mv.of": ["بلية {name}", "{name}'s marble"],
  "jk.steps": ["{n} خطوة", "{n} steps"],
  "jk.yourTurn": ["دورك!", "Your turn!"],
  "turn.title": ["● دورك! · سهرات", "● Your turn! · Sahrat"],
  "clock.left": ["باقي {n} ث", "{n} s left"],
  "sound.mute": ["كتم الأصوات", "Mute sounds"],
  "sound.on": ["الصوت شغّال", "Sound on"],
  "sound.off": ["الصوت مقفّل", "Sound off"],
  "replay.speed": ["السرعة", "Speed"],
  "replay.moves": ["الحركات", "Moves"],
  "fair.badge": ["خلط عادل ✓", "Fair shuffle ✓"],
  "bu.summary.resumesIn": ["الجولة الجاية تبدأ بعد {n} ثانية", "The next hand starts in {n} seconds"],
  "bu.summary.resumed": ["الجولة الجاية بدأت", "The next hand has started"],
};

export const PLURALS = {
  "seat.cards": [
    { zero: "ولا ورقة", one: "ورقة وحدة", two: "ورقتين", few: "{n} أوراق", many: "{n} ورقة", other: "{n} ورقة" },
    { one: "{n} card", other: "{n} cards" },
  ],
  "jk.steps": [
    { zero: "ولا خطوة", one: "خطوة وحدة", two: "خطوتين", few: "{n} خطوات", many: "{n} خطوة", other: "{n} خطوة" },
    { one: "{n} step", other: "{n} steps" },
  ],
  "bu.points": [
    { zero: "ولا نقطة", one: "نقطة وحدة", two: "نقطتين", few: "{n} نقاط", many: "{n} نقطة", other: "{n} نقطة" },
    { one: "{n} point", other: "{n} points" },
  ],
  "bu.summary.resumesIn": [
    { zero: "الجولة الجاية تبدأ الحين", one: "الجولة الجاية تبدأ بعد ثانية", two: "الجولة الجاية تبدأ بعد ثانيتين", few: "الجولة الجاية تبدأ بعد {n} ثواني", many: "الجولة الجاية تبدأ بعد {n} ثانية", other: "الجولة الجاية تبدأ بعد {n} ثانية" },
    { one: "The next hand starts in {n} second", other: "The next hand starts in {n} seconds" },
  ],
  "bu.morto.untaken": [
    { zero: "ولا ورقة، ما انأخذ", one: "ورقة وحدة، ما انأخذ", two: "ورقتين، ما انأخذ", few: "{n} أوراق، ما انأخذ", many: "{n} ورقة، ما انأخذ", other: "{n} ورقة، ما انأخذ" },
    { one: "{n} card, untaken", other: "{n} cards, untaken" },
  ],
};

const RULES = {};

/** The plural form of `key` for `n` in `lang` ("ar"/"en"), or null when the key has none. */
export function pluralForm(key, n, lang) {
  const forms = PLURALS[key];
  if (!forms || typeof n !== "number") return null;
  const rules = (RULES[lang] ||= new Intl.PluralRules(lang));
  const set = forms[lang === "ar" ? 0 : 1];
  return set[rules.select(n)] ?? set.other;
}

/** Arabic-Indic digits as Western ones: one numeral style throughout the page. */
export function westernDigits(text) {
  return text.replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x660));
}
