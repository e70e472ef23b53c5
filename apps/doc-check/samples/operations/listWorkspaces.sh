curl -sS --fail-with-body "$FORMS_API_BASE_URL/open/workspaces" \
  -H "Authorization: Bearer $FORMS_API_TOKEN" -H 'Accept: application/json'
