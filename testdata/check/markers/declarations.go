package markers

// Union and enum markers on variables and functions take no effect (MG005); markers of
// other generators there are left alone.

// want "MG005" "`\\+enum` on variable DefaultShape has no effect: it belongs on a type"
// +enum
var DefaultShape = ShapeType("Circle")

var (
	// Grouped variables: each spec's own comment.
	// want "MG005" "on variable Fallback has no effect"
	// +unionMember
	Fallback = ShapeType("Circle")

	// +k8s:deepcopy-gen=false
	Other = 1
)

// want "MG005" "on function NewShape has no effect"
// +union
func NewShape() ShapeType { return ShapeType("Circle") }

// want "MG005" "on function WrongPlace.Describe has no effect"
// +unionDiscriminator
func (w WrongPlace) Describe() string { return w.Kind }

// +kubebuilder:object:generate=false
func helper() {}

// An ordinary comment mentioning +enum mid-line is no marker.
var plain = 2
