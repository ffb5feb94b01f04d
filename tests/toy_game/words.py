"""Race's words in English, Hebrew and Russian. The toy keeps its own small catalog (a test's
game, not the bot's: its msgids stay out of bot/i18n's catalogs); `say` reads the current
language as the catalogs' `_` does, and fills the values isolated, as `t` does."""

from __future__ import annotations

from bot.i18n import current, fill

# msgid -> {language: translation}; English is the msgid itself
WORDS: dict[str, dict[str, str]] = {
    "Race to {target}": {"he": "מרוץ עד {target}", "ru": "Гонка до {target}"},
    "Race lesson": {"he": "שיעור מרוץ", "ru": "Урок гонки"},
    "step": {"he": "צעד", "ru": "шаг"},
    "total {total} of {target}": {"he": "סך הכול {total} מתוך {target}",
                                  "ru": "всего {total} из {target}"},
    " — {name} wins the race": {"he": " — {name} מנצח/ת במרוץ", "ru": " — {name} выигрывает гонку"},
    "🏁 {name} wins the race": {"he": "🏁 {name} מנצח/ת במרוץ", "ru": "🏁 {name} выигрывает гонку"},
    "{name} adds {n}: {total}": {"he": "{name} מוסיף/ה {n}: {total}",
                                 "ru": "{name} добавляет {n}: {total}"},
    "Add…": {"he": "להוסיף…", "ru": "Добавить…"},
    "Your move": {"he": "המהלך שלך", "ru": "Ваш ход"},
    "Your turn: add 1 to {step}": {"he": "תורך: להוסיף 1 עד {step}",
                                   "ru": "Ваш ход: добавьте от 1 до {step}"},
    "Waiting for {name}…": {"he": "ממתינים ל־{name}…", "ru": "Ждём: {name}…"},
    "Player": {"he": "שחקן", "ru": "Игрок"},
    "Won": {"he": "ניצחונות", "ru": "Победы"},
    "The race hasn't started.": {"he": "המרוץ עוד לא התחיל.", "ru": "Гонка ещё не началась."},
    "Only players press here.": {"he": "רק השחקנים לוחצים כאן.",
                                 "ru": "Здесь нажимают только игроки."},
    "Not a button of this game.": {"he": "זה לא כפתור של המשחק הזה.",
                                   "ru": "Это не кнопка этой игры."},
    "Type /plus 1": {"he": "הקלידו ‎/plus 1", "ru": "Наберите /plus 1"},
    "Nothing to select in a race.": {"he": "אין מה לבחור במרוץ.", "ru": "В гонке нечего выбирать."},
    "Race: /newgame ten": {"he": "מרוץ: ‎/newgame ten", "ru": "Гонка: /newgame ten"},
    "Add 1 or 2; reach the target to win.": {
        "he": "מוסיפים 1 או 2; מי שמגיע/ה ליעד מנצח/ת.",
        "ru": "Добавляйте 1 или 2; кто дойдёт до цели, тот и выиграл."},
    "time ran out": {"he": "הזמן נגמר", "ru": "время вышло"},
    "Commands: press a button's number, or type plus 1\n"
    "  table · rules · leaderboard · stats · help · quit (the game is saved)": {
        "he": "פקודות: הקישו את מספר הכפתור, או הקלידו plus 1\n"
              "  table · rules · leaderboard · stats · help · quit (המשחק נשמר)",
        "ru": "Команды: нажмите номер кнопки или наберите plus 1\n"
              "  table · rules · leaderboard · stats · help · quit (игра сохраняется)"},
    # the lesson: one person against one easy computer, Race to ten by 1 or 2
    "The lesson is for one person and one computer: add a computer, then Start.": {
        "he": "השיעור הוא לאדם אחד ולמחשב אחד: הוסיפו מחשב, ואז התחילו.",
        "ru": "Урок — для одного человека и одного компьютера: добавьте компьютер и начните."},
    "📘 Leave the computer a multiple of 3 to go: 10 − 1 = 9. Add 1.": {
        "he": "📘 השאירו למחשב כפולה של 3 עד הסוף: ‎10 − 1 = 9‎. הוסיפו 1.",
        "ru": "📘 Оставьте компьютеру до цели число, кратное 3: 10 − 1 = 9. Добавьте 1."},
    "📘 Again: leave a multiple of 3 to go.": {
        "he": "📘 שוב: השאירו כפולה של 3 עד הסוף.",
        "ru": "📘 Снова: оставьте до цели число, кратное 3."},
    "📘 Now reach 10: add what is left.": {"he": "📘 עכשיו הגיעו ל־10: הוסיפו את מה שנשאר.",
                                          "ru": "📘 Теперь дойдите до 10: добавьте остаток."},
    "📘 Not that one: after your move, what is left to 10 should be 9, 6 or 3.": {
        "he": "📘 לא זה: אחרי המהלך שלכם, מה שנשאר עד 10 צריך להיות 9, 6 או 3.",
        "ru": "📘 Не то: после вашего хода до 10 должно остаться 9, 6 или 3."},
    "✓ Whatever the computer adds, you can leave a multiple of 3 again.": {
        "he": "✓ מה שהמחשב לא יוסיף, תוכלו שוב להשאיר כפולה של 3.",
        "ru": "✓ Что бы ни добавил компьютер, вы снова оставите кратное 3."},
    "🎓 You won: always leave a multiple of (step + 1) to go.": {
        "he": "🎓 ניצחתם: תמיד השאירו כפולה של (צעד + 1) עד הסוף.",
        "ru": "🎓 Победа: всегда оставляйте до цели кратное (шаг + 1)."},
}


def say(msgid: str, **values: object) -> str:
    """`msgid` in the current language (English where the toy has no translation), its
    `{values}` filled in isolated."""
    text = WORDS.get(msgid, {}).get(current(), msgid)
    return fill(text, **values) if values else text
