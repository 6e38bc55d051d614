package accounts

// Message ids of this module, in errors and answers; each is a key of the
// locale catalogs (webapp/locales).
const (
	MsgLoginFailed        = "accounts.login.failed"
	MsgLoggedIn           = "accounts.login.ok"
	MsgEmailInvalid       = "accounts.email.invalid"
	MsgEmailTaken         = "accounts.email.taken"
	MsgPhoneCountryCode   = "accounts.phone.countryCode"
	MsgPasswordMismatch   = "accounts.password.mismatch"
	MsgPasswordShort      = "accounts.password.tooShort"
	MsgPasswordLong       = "accounts.password.tooLong"
	MsgPasswordWrong      = "accounts.password.wrongCurrent"
	MsgCompanyNameReq     = "accounts.company.name.required"
	MsgCompanyNameLong    = "accounts.company.name.tooLong"
	MsgOrgNumberReq       = "accounts.company.orgNumber.required"
	MsgOrgNumberFormat    = "accounts.company.orgNumber.format"
	MsgCompanyEmailReq    = "accounts.company.email.required"
	MsgCountryInvalid     = "accounts.company.country.invalid"
	MsgTimezoneInvalid    = "accounts.company.timezone.invalid"
	MsgInviteNotFound     = "accounts.invite.notFound"
	MsgInviteSent         = "accounts.invite.sent"
	MsgInviteOther        = "accounts.invite.otherCompany"
	MsgDeleteSelf         = "accounts.user.deleteSelf"
	MsgOwnRole            = "accounts.role.own"
	MsgRoleInvalid        = "accounts.role.invalid"
	MsgRoleNotAllowed     = "accounts.role.notAllowed"
	MsgAlreadyMember      = "accounts.company.alreadyMember"
	MsgNoCompany          = "accounts.company.none"
	MsgRegistrationClosed = "accounts.registration.closed"
	MsgCompanyLimit       = "accounts.company.limit" // names the license's limit, {max}
	MsgForgotSent         = "accounts.forgot.sent"
	MsgResetInvalid       = "accounts.forgot.invalidLink"
	MsgResetBadGUID       = "accounts.forgot.badGuid"
	MsgResetDone          = "accounts.forgot.done"
	MsgRefreshInvalid     = "accounts.refresh.invalid"
	MsgRegistered         = "accounts.register.done"
)

// Message ids of the audit trail's entries about accounts (audit.Change);
// {user} is who made the change, {target} the email of the user changed,
// {name} the company's name.
const (
	AuditUserCreated       = "audit.user.created"
	AuditUserRegistered    = "audit.user.registered"
	AuditUserEdited        = "audit.user.edited"
	AuditUserPassword      = "audit.user.passwordChanged"
	AuditUserPasswordReset = "audit.user.passwordReset"
	AuditUserRole          = "audit.user.roleChanged"
	AuditUserDeleted       = "audit.user.deleted"
	AuditUserInvited       = "audit.user.invited"
	AuditCompanyCreated    = "audit.company.created"
	AuditCompanyEdited     = "audit.company.edited"
	AuditCompanyDeleted    = "audit.company.deleted"
	AuditCompanyLogo       = "audit.company.logoChanged"
	AuditCompanyLogoGone   = "audit.company.logoRemoved"
)
