curl -sS --fail-with-body "$FORMS_API_BASE_URL/open/workspaces/1/invites" \
  -H "Authorization: Bearer $FORMS_API_TOKEN" -H 'Accept: application/json'
