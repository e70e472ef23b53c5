curl -sS --fail-with-body -X POST "$FORMS_API_BASE_URL/forms/contact-us-a1b2c3/answer" \
  -H 'Accept: application/json' -H 'Content-Type: application/json' \
  -d "{\"$NAME_FIELD_ID\": \"Jane Doe\", \"$EMAIL_FIELD_ID\": \"jane@example.com\", \"completion_time\": 42}"
