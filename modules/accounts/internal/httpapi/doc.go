package httpapi

import (
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/directory"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/signin"
	"net/http"
)

// docs describes this package's /api routes for the OpenAPI document.
var docs = web.Docs{
	"POST /users/authenticate": {Summary: "Sign in with email and password; answers the access and refresh tokens and the role, and sets them as HttpOnly cookies for browsers.", Request: struct {
		Email    string `json:"email"`
		Password string `json:"password"`
	}{}, Response: (*signin.Answer)(nil),
		Example: web.Example{Request: `{"email": "anna@acme.example", "password": "correct horse battery"}`, Response: `{"token": "eyJ1IjoxfQ.c2ln", "role": "CompanyAdmin", "refreshToken": "r-4f2a9c", "expiresAt": "2026-11-27T16:00:00Z", "userId": 12, "companyId": 3, "message": ""}`}},
	"POST /users/refresh": {Summary: "Exchange a refresh token for a new access token.", Request: struct {
		RefreshToken string `json:"refreshToken"`
	}{}, Response: (*signin.Answer)(nil)},
	"POST /users/logout":         {Summary: "Sign out: end the session and clear its cookies."},
	"POST /users/forgot/{email}": {Summary: "Send a password reset link to the address, if it belongs to a user.", Response: (map[string]string)(nil)},
	"PUT /users/forgot/{guid}": {Summary: "Set a new password with the reset link's code.", Request: struct {
		Password        string  `json:"password"`
		ConfirmPassword *string `json:"confirmPassword"`
	}{}, Response: (map[string]string)(nil)},
	"POST /users": {Summary: "Register a user.", Request: directory.UserInput{}, Description: "Signed in, an Admin or CompanyAdmin creates the user and gets it back; a visitor registers and gets {\"message\"} instead.", Response: (*accounts.User)(nil), Status: http.StatusCreated},
	"GET /users": {Summary: "The signed-in user.", Response: (*accounts.User)(nil),
		Example: web.Example{Response: `{"userId": 12, "companyId": 3, "email": "anna@acme.example", "firstName": "Anna", "lastName": "Berg", "phoneNumber": "+46701234567", "role": "CompanyAdmin", "createdAt": "2026-01-10T08:00:00Z", "updatedAt": "2026-03-02T09:30:00Z"}`}},
	"GET /users/all":                  {Summary: "Every user of the installation.", Response: ([]accounts.User)(nil)},
	"POST /users/create/company":      {Summary: "Register a user together with a new company.", Request: directory.RegisterInput{}, Response: (map[string]any)(nil), Status: http.StatusCreated},
	"GET /users/{userId}":             {Summary: "One user.", Response: (*accounts.User)(nil)},
	"GET /users/{userId}/company":     {Summary: "The company a user belongs to.", Response: (*accounts.Company)(nil)},
	"PUT /users/{userId}":             {Summary: "Change a user's details.", Request: directory.UserInput{}, Response: (*accounts.User)(nil)},
	"DELETE /users/{userId}":          {Summary: "Delete a user."},
	"PUT /users/{userId}/role/{role}": {Summary: "Change a user's role.", Response: (*accounts.User)(nil)},
	"GET /companies":                  {Summary: "The companies the caller may see.", Response: ([]accounts.Company)(nil)},
	"GET /companies/all":              {Summary: "Every company of the installation.", Response: ([]accounts.Company)(nil)},
	"POST /companies": {Summary: "Create a company.", Request: directory.CompanyInput{}, Response: (*accounts.Company)(nil), Status: http.StatusCreated,
		Example: web.Example{Request: `{"name": "Acme Fields AB", "orgNumber": "556677-8899", "country": "SE", "timezone": "Europe/Stockholm"}`}},
	"GET /companies/{companyId}":       {Summary: "One company.", Response: (*accounts.Company)(nil)},
	"PUT /companies/{companyId}":       {Summary: "Change a company's details.", Request: directory.CompanyInput{}, Response: (*accounts.Company)(nil)},
	"DELETE /companies/{companyId}":    {Summary: "Delete a company."},
	"GET /companies/{companyId}/users": {Summary: "A company's users.", Response: ([]accounts.User)(nil)},
	"POST /companies/{companyId}/user": {Summary: "Invite a user to a company by email.", Request: struct {
		Email string `json:"email"`
	}{}, Response: (map[string]string)(nil),
		Example: web.Example{Request: `{"email": "new.worker@acme.example"}`}},
	"GET /companies/{companyId}/image":    {Summary: "A company's logo (the image file).", ContentType: "image/*"},
	"POST /companies/{companyId}/image":   {Summary: "Upload a company's logo (the image file as the body).", RequestType: "image/*", Response: (*accounts.Company)(nil)},
	"DELETE /companies/{companyId}/image": {Summary: "Remove a company's logo."},
}
