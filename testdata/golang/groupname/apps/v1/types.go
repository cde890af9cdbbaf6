package v1

type Deployment struct {
	Replicas int32 `json:"replicas"`
}
