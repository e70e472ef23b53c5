curl -sS --fail-with-body -X DELETE "$FORMS_API_BASE_URL/open/forms/11/submissions/$FORMS_SUBMISSION_ID" \
  -H "Authorization: Bearer $FORMS_API_TOKEN" -H 'Accept: application/json'
