curl -sS --fail-with-body -X DELETE "$FORMS_API_BASE_URL/open/workspaces/1/users/$FORMS_USER_ID/remove" \
  -H "Authorization: Bearer $FORMS_API_TOKEN" -H 'Accept: application/json'
