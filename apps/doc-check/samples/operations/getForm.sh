curl -sS --fail-with-body "$FORMS_API_BASE_URL/open/forms/contact-us-a1b2c3" \
  -H "Authorization: Bearer $FORMS_API_TOKEN" -H 'Accept: application/json'
