curl -sS --fail-with-body -X DELETE "$FORMS_API_BASE_URL/open/workspaces/$FORMS_WORKSPACE_ID" \
  -H "Authorization: Bearer $FORMS_API_TOKEN" -H 'Accept: application/json'
