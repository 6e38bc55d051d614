package dashboards

// TreeNode is a node of the category tree the category-tree island and
// the chooser page draw: a category with its children, or a dashboard (a
// leaf).
type TreeNode struct {
	Title    string      `json:"title"`
	IsLeaf   bool        `json:"isLeaf"`
	Data     TreeData    `json:"data"`
	Children []*TreeNode `json:"children"`
}

// TreeData is what a tree node carries.
type TreeData struct {
	Icon                string  `json:"icon"`
	Color               string  `json:"color"`
	DashboardCategoryID *int64  `json:"dashboardCategoryId"`
	DashboardID         *int64  `json:"dashboardId,omitempty"`
	GUID                *string `json:"guid,omitempty"`
	Index               int     `json:"index"`
}

// Tree builds a company's tree from its categories (ordered by position)
// and its dashboards (ordered by category and position): categories by
// index with their sub-categories inside, then the dashboards of each
// category; dashboards without a category follow the root categories.
func Tree(cats []*Category, dashes []*Dashboard) []*TreeNode {
	nodes := make(map[int64]*TreeNode, len(cats))
	for _, c := range cats {
		id, guid := c.ID, c.GUID
		nodes[c.ID] = &TreeNode{Title: c.Title, Children: []*TreeNode{},
			Data: TreeData{Icon: c.Icon, Color: c.Color, DashboardCategoryID: &id, GUID: &guid, Index: c.Index}}
	}
	root := []*TreeNode{}
	for _, c := range cats { // ordered by position, so children come in order
		n := nodes[c.ID]
		if c.ParentID != nil && nodes[*c.ParentID] != nil {
			p := nodes[*c.ParentID]
			p.Children = append(p.Children, n)
		} else {
			root = append(root, n)
		}
	}
	var loose []*TreeNode
	for _, d := range dashes { // ordered by category and position
		id := d.ID
		leaf := &TreeNode{Title: d.Name, IsLeaf: true, Children: []*TreeNode{},
			Data: TreeData{Icon: DashboardIcon, Color: DefaultColor, DashboardCategoryID: d.CategoryID, DashboardID: &id, Index: d.Index}}
		if d.CategoryID != nil && nodes[*d.CategoryID] != nil {
			p := nodes[*d.CategoryID]
			p.Children = append(p.Children, leaf)
		} else {
			loose = append(loose, leaf)
		}
	}
	return append(root, loose...)
}
