"""What players see, built without calling Telegram: texts, captions, keyboards, callback data,
board images, translations."""
