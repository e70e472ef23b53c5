curl -sS --fail-with-body -L -o attachment.bin "$FORMS_FILE_URL"
