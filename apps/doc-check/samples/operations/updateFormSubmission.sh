curl -sS --fail-with-body -X PUT "$FORMS_API_BASE_URL/open/forms/11/submissions/$FORMS_SUBMISSION_ID" \
  -H "Authorization: Bearer $FORMS_API_TOKEN" -H 'Accept: application/json' \
  -H 'Content-Type: application/json' \
  -d "{\"$NAME_FIELD_ID\": \"Jane Doe\", \"$EMAIL_FIELD_ID\": \"jane@example.com\"}"
