package dashboards

// Message ids (keys of the locale catalogs) of the module's errors, for
// callers and tests that check which rule an answer broke.
const (
	IDNoCompany          = "dashboards.noCompany"
	IDCategoryNotEmpty   = "dashboards.categoryNotEmpty"
	IDColor              = "dashboards.color.invalid"
	IDIcon               = "dashboards.icon.invalid"
	IDParentUnknown      = "dashboards.parent.unknown"
	IDParentCycle        = "dashboards.parent.cycle"
	IDCategoryUnknown    = "dashboards.category.unknown"
	IDDashboardUnknown   = "dashboards.dashboard.unknown"
	IDIndex              = "dashboards.index.invalid"
	IDScope              = "dashboards.default.scope"
	IDType               = "dashboards.module.type"
	IDTypeFunction       = "dashboards.module.typeFunction"
	IDSize               = "dashboards.module.size"
	IDTag                = "dashboards.module.tag"
	IDURL                = "dashboards.module.url"
	IDMinMax             = "dashboards.module.minMax"
	IDNumber             = "dashboards.module.number"
	IDTimeOffset         = "dashboards.module.timeOffset"
	IDMapType            = "dashboards.module.mapType"
	IDMapCenter          = "dashboards.module.mapCenter"
	IDZoom               = "dashboards.module.zoom"
	IDAttrUnknown        = "dashboards.module.attribute.unknown"
	IDAttrInvalid        = "dashboards.module.attribute.invalid"
	IDAttrTooLong        = "dashboards.module.attribute.tooLong"
	IDContentTooLong     = "dashboards.module.content.tooLong"
	IDModulesEmpty       = "dashboards.modules.empty"
	IDModulesDuplicate   = "dashboards.modules.duplicate"
	IDExpiresAt          = "dashboards.public.expiresAt"
	IDPublicUnknown      = "dashboards.public.unknown"
	IDRange              = "dashboards.tagdata.range"
	IDPoints             = "dashboards.tagdata.points"
	IDResolution         = "dashboards.tagdata.resolution"
	IDTimeZone           = "dashboards.tagdata.timeZone"
	IDNoPosition         = "dashboards.weather.noPosition"
	IDWeatherUnavailable = "dashboards.weather.unavailable"
	IDWeatherBadGateway  = "dashboards.weather.badGateway"
)

// Message ids of the audit trail's entries about dashboards, their
// categories, modules and public links (audit.Change); {name} is a
// dashboard's name, {title} a category's or module's title. A public
// link's token is never in an entry.
const (
	AuditCategoryCreated = "audit.category.created"
	AuditCategoryEdited  = "audit.category.edited"
	AuditCategoryDeleted = "audit.category.deleted"
	AuditTreeOrdered     = "audit.category.ordered"
	AuditCreated         = "audit.dashboard.created"
	AuditEdited          = "audit.dashboard.edited"
	AuditDeleted         = "audit.dashboard.deleted"
	AuditCopied          = "audit.dashboard.copied"
	AuditDefaultSet      = "audit.dashboard.defaultSet"
	AuditDefaultCleared  = "audit.dashboard.defaultCleared"
	AuditWidgetAdded     = "audit.widget.added"
	AuditWidgetEdited    = "audit.widget.edited"
	AuditWidgetsEdited   = "audit.widget.layout"
	AuditWidgetDeleted   = "audit.widget.deleted"
	AuditWidgetCopied    = "audit.widget.copied"
	AuditWidgetImage     = "audit.widget.imageChanged"
	AuditWidgetImageGone = "audit.widget.imageRemoved"
	AuditLinkCreated     = "audit.publicLink.created"
	AuditLinkDeleted     = "audit.publicLink.deleted"
)
