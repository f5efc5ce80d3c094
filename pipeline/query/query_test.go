package query

import (
	"slices"
	"testing"

	"github.com/cewhq/cew/pipeline/guard"
)

// vocabulary is a small index vocabulary in the words of the sample corpus.
var vocabulary = map[string]int{
	"default": 40, "system": 80, "losses": 12, "loss": 20, "pvwatts": 60, "soiling": 3, "temperature": 30,
	"coefficient": 9, "premium": 6, "modules": 25, "module": 30, "inverter": 40, "efficiency": 15,
	"nominal": 5, "tracking": 10, "table": 30, "albedo": 4, "coefficent": 1, "backtracking": 3,
	"sb7000tl": 2, "paco": 1900, "trench": 2, "depth": 3, "average": 12, "avg": 2,
	"office": 5, "time": 9, "zone": 2, "high": 7, "est": 1, "model": 50, "mode": 80, "under": 9, "user": 10, "pso": 40, "vmpo": 600, "bvmpo": 600,
	"idcmax": 900, "vdcmax": 900, "kaco": 20, "planet": 20,
}

func TestAnalyse(t *testing.T) {
	sp := NewSpeller(vocabulary)
	tests := []struct {
		name      string
		in        string
		technical bool
		text      string
		stray     []string
		dims      []guard.Dimension
	}{
		{name: "typos corrected against the index", in: "defualt sytem losses in pvwats?",
			text: "default system losses in pvwatts?", dims: []guard.Dimension{guard.DimPercent}},
		{name: "shorthand spelled out", in: "temp coeff for premium modules",
			text: "temperature coefficient for premium modules", dims: []guard.Dimension{guard.DimTempCoeff}},
		{name: "site shorthand spelled out", in: "can we toss haz waste from demo into the c&d landfill",
			text: "can we toss hazardous waste from demolition into the c&d landfill"},
		{name: "w/ and w/o are with and without", in: "old ballasts w/ pcbs and runs w/o trackers",
			text: "old ballasts with pcbs and runs without trackers"},
		{name: "a lone ampersand is and", in: "day & month field ranges in the o&m hourly input",
			text: "day and month field ranges in the o&m hourly input"},
		{name: "chat clippings spelled out", in: "gap btwn mods abt the torque tube, req'd by sec 404, pvwatts ver 1",
			text: "gap between modules about the torque tube, required by section 404, pvwatts v1", dims: []guard.Dimension{guard.DimLength}},
		{name: "number of clipped", in: "no. of systems in the measured data comparison, # of sites and num of modules",
			text: "number of systems in the measured data comparison, number of sites and number of modules", dims: []guard.Dimension{guard.DimCount}},
		{name: "a report number is no count", in: "what is the report number of the fuentes thermal model report",
			text: "what is the report number of the fuentes thermal model report"},
		{name: "a hash ending a word is no number of", in: "unique id# of the pvp250kw-480 in the sandia list",
			text: "unique id# of the pvp250kw-480 in the sandia list"},
		{name: "uid is unique id", in: "delta si 2500 us sandia uid", text: "delta si 2500 us sandia unique id"},
		{name: "incl is including, not a misspelt inch", in: "ks10 module area incl frame", text: "ks10 Module Area including frame"},
		{name: "a version is written as one word", in: "boulder backtracking v5 vs version 1 increase",
			text: "boulder backtracking v5 versus v1 increase"},
		{name: "scen is scenario, and its number is kept", in: "scen #2 in the iea bifi scenario tbl - name + gcr",
			text: "scenario 2 in the iea bifacial scenario table - name + gcr", dims: []guard.Dimension{guard.DimRatio}},
		{name: "sec after a number is seconds", in: "sample every 30 sec", text: "sample every 30 sec"},
		{name: "a scope phrase removed", in: "according to the docs, default albedo in pvwatts",
			text: "default albedo in pvwatts", stray: []string{"according to the docs,"}, dims: []guard.Dimension{guard.DimRatio}},
		{name: "fed is federal", in: "which nepa docs on a fed construction job",
			text: "which nepa documents on a federal construction job"},
		{name: "db is database", in: "what does fd mean in the sandia module db",
			text: "what does fd mean in the sandia module database"},
		{name: "eff is efficiency", in: "pvwatts nominal inverter eff default?",
			text: "pvwatts nominal inverter efficiency default?", dims: []guard.Dimension{guard.DimPercent, guard.DimRatio}},
		{name: "ticket marker removed", in: "What is the default soiling loss in PVWatts? #3",
			text: "What is the default soiling loss in PVWatts?", stray: []string{"#3"}, dims: []guard.Dimension{guard.DimPercent}},
		{name: "pointer in brackets removed", in: "default system losses (see table 6)",
			text: "default system losses", stray: []string{"(see table 6)"}, dims: []guard.Dimension{guard.DimPercent}},
		{name: "leading ticket reference removed", in: "re: JIRA-1182 min trench depth for AC cables",
			text: "minimum trench depth for AC cables", stray: []string{"re: JIRA-1182"}, dims: []guard.Dimension{guard.DimLength}},
		{name: "ticket reference at the end removed", in: "pvwatts connections loss default re: JIRA-1182",
			text: "pvwatts connections loss default", stray: []string{"re: JIRA-1182"}, dims: []guard.Dimension{guard.DimPercent}},
		{name: "a numbered item named before more of the question is kept", in: "scenario #4 in the iea bifi table - which name is it",
			text: "scenario 4 in the iea bifacial table - which name is it"},
		{name: "a numbered item named before a dash and more of the question is kept", in: "iea bifi scenario #1 - name + hub height",
			text: "iea bifacial scenario 1 - name + hub height", dims: []guard.Dimension{guard.DimLength}},
		{name: "a note in brackets of what the answer is for removed", in: "iea bifi hub height (for tbl 2 in our writeup)",
			text: "iea bifacial hub height", stray: []string{"(for tbl 2 in our writeup)"}, dims: []guard.Dimension{guard.DimLength}},
		{name: "a closing note of what the answer is for removed", in: "cercla full name? need it spelled out for the env section of the bid",
			text: "cercla full name", stray: []string{"? need it spelled out for the env section of the bid"}},
		{name: "a closing note that ends on a question mark removed", in: "haz waste examples on a jobsite besides solvents + paint - need 2 for the toolbox talk?",
			text: "hazardous waste examples on a jobsite besides solvents + paint", stray: []string{"- need 2 for the toolbox talk?"}},
		{name: "any tracker's key pointed at at the end removed", in: "harrisburg pa 2-axis increase v5 vs v1? re PRJ-1182",
			text: "harrisburg pa 2-axis increase v5 versus v1?", stray: []string{"re PRJ-1182"}},
		{name: "a tracker's key after a spaced dash at the end removed", in: "enphase m215 paco - PRJ-3224",
			text: "enphase m215 paco", stray: []string{"- PRJ-3224"}, dims: []guard.Dimension{guard.DimPower}},
		{name: "a tracker's key in square brackets removed", in: "year range allowed in the hourly input data [CR-1134]",
			text: "year range allowed in the hourly input data", stray: []string{"[CR-1134]"}, dims: []guard.Dimension{guard.DimDate}},
		{name: "a marker with the word pointing at it removed", in: "albedo default pvwatts re: #8288",
			text: "albedo default pvwatts", stray: []string{"re: #8288"}, dims: []guard.Dimension{guard.DimRatio}},
		{name: "a closing note naming a ticket removed", in: "default system losses in pvwatts, need it for RFI 17",
			text: "default system losses in pvwatts", stray: []string{", need it for RFI 17"}, dims: []guard.Dimension{guard.DimPercent}},
		{name: "a model number the index knows after a comma at the end is kept", in: "paco of the sma inverter, SB-7000",
			text: "paco of the sma inverter, sb7000", dims: []guard.Dimension{guard.DimPower}},
		{name: "a model number after a word at the end is kept", in: "paco for the SB-5000",
			text: "paco for the SB-5000", dims: []guard.Dimension{guard.DimPower}},
		{name: "a voltage spelled out is written as the documents write it", in: "sunteams 2000 tamb low 208 V vs 240-volt",
			text: "sunteams 2000 tamb low 208v versus 240v"},
		{name: "a question in capitals is read in lower case", in: "CONEXT CL 18000 PACO AND VDCMAX",
			text: "conext cl 18000 paco and vdcmax", dims: []guard.Dimension{guard.DimPower, guard.DimVoltage}},
		{name: "a module sheet's symbol named by its description", in: "diode ideality factor of the schott solar ase-300-dgf/17 (265)",
			text: "n of the schott solar ase-300-dgf/17 (265)"},
		{name: "a module sheet's symbol named by its letters", in: "siemens solar sp18 (12v) dtc",
			text: "siemens solar sp18 (12v) d(Tc)"},
		{name: "greeting, lead-in and thanks removed", in: "hey, quick q: default soiling loss in pvwatts thanks",
			text: "default soiling loss in pvwatts", stray: []string{"hey, quick q:", "thanks"}, dims: []guard.Dimension{guard.DimPercent}},
		{name: "a ticket pointed at without a colon removed", in: "pvwatts connections loss default re JIRA-904",
			text: "pvwatts connections loss default", stray: []string{"re JIRA-904"}, dims: []guard.Dimension{guard.DimPercent}},
		{name: "a project ticket ending the question removed", in: "nhpa sec 106 - who does it put the duty on PRJ-2231",
			text: "nhpa section 106 - who does it put the duty on", stray: []string{"PRJ-2231"}},
		{name: "a column named by its own words", in: "sunteams 5000 240v tamb max",
			text: "sunteams 5000 240v Tamb Max"},
		{name: "a series name with a letter after a hyphen names a model", in: "hisel-k 3000 208v max ac power",
			text: "hisel-k 3000 208v Paco", dims: []guard.Dimension{guard.DimPower}},
		{name: "an inverter's rating is its power, whatever ratio it is worked out at", in: "what ac inverter rating for a 4 kW dc system at the default dc-to-ac ratio",
			text: "what ac inverter rating for a 4 kW dc system at the default dc-to-ac ratio", dims: []guard.Dimension{guard.DimPower}},
		{name: "a unit stands for the quantity it measures", in: "se20k max dc volts and max input amps",
			text: "se20k Vdcmax and Idcmax", dims: []guard.Dimension{guard.DimVoltage, guard.DimCurrent}},
		{name: "a rear side parameter is not the sheet's front one", in: "rear side isc of the sanyo hip-200da3 bifacial",
			text: "rear side isc of the sanyo hip-200da3 bifacial", dims: []guard.Dimension{guard.DimCurrent}},
		{name: "a purchase order removed", in: "pvp100kw-600 idcmax + night tare, PO 7731",
			text: "pvp100kw-600 idcmax + Pnt", stray: []string{"PO 7731"}, dims: []guard.Dimension{guard.DimCurrent}},
		{name: "a misspelt word of the glossary is read by it", in: "ngiht tare on the danfoss mlx 480",
			text: "Pnt on the danfoss mlx 480", dims: []guard.Dimension{guard.DimPower}},
		{name: "a value the question states is not asked for", in: "what is the 3% default shading loss meant to represent",
			text: "what is the 3% default shading loss meant to represent"},
		{name: "a value the question states after its cue is not asked for", in: "how is the reference inverter efficiency of 0.9637 defined",
			text: "how is the reference inverter efficiency of 0.9637 defined"},
		{name: "a number of another kind after the cue describes the case", in: "what is the soiling loss of the 4 kW system",
			text: "what is the soiling loss of the 4 kW system", dims: []guard.Dimension{guard.DimPercent}},
		{name: "a value the question states with its unit is not asked for", in: "a3 and ref-b both sit at 3.5 m hub height - how do their configs differ",
			text: "a3 and ref-b both sit at 3.5 m hub height - how do their configurations differ"},
		{name: "a value of another clause leaves the cue asking", in: "with 3% soiling what is the total loss",
			text: "with 3% soiling what is the total loss", dims: []guard.Dimension{guard.DimPercent}},
		{name: "an hour after no number is the hour", in: "sunrise hr: where in the hour is the sun position",
			text: "sunrise hour: where in the hour is the sun position"},
		{name: "minutes stay minutes", in: "is the 5 min average used", text: "is the 5 min average used"},
		{name: "a lone n between two words is and", in: "heart transverter ht2000 vac n paco",
			text: "heart transverter ht2000 vac and paco", dims: []guard.Dimension{guard.DimVoltage, guard.DimPower}},
		{name: "n after a function word stays", in: "is the refractive index of glass n", text: "is the refractive index of glass n"},
		{name: "sq and cu before a length are square and cubic", in: "racm threshold in sq ft and cu ft",
			text: "racm threshold in square ft and cubic ft"},
		{name: "cu alone is copper", in: "cu cable size", text: "cu cable size", dims: []guard.Dimension{guard.DimArea}},
		{name: "an English word is never corrected", in: "trench depth for cable runs",
			text: "trench depth for cable runs", dims: []guard.Dimension{guard.DimLength}},
		{name: "identifiers and units are never corrected", in: "paco of SB7000TL-US-22 at 208V",
			text: "paco of SB7000TL-US-22 at 208V", dims: []guard.Dimension{guard.DimPower}},
		{name: "weak cue only for technical questions", in: "pvwatts soiling default", technical: true,
			text: "pvwatts soiling default", dims: []guard.Dimension{guard.DimPercent}},
		{name: "an adjective of time asks for no duration", in: "monthly error bound for pvwatts estimates",
			text: "monthly error bound for pvwatts estimates"},
		{name: "one day names a day, not a duration", in: "cloudy day in june for the short run option",
			text: "cloudy day in june for the short run option"},
		{name: "days are a duration", in: "notice days before demolition", text: "notice days before demolition",
			dims: []guard.Dimension{guard.DimTime}},
		{name: "a duration is asked for", in: "how many months of data", text: "how many months of data",
			dims: []guard.Dimension{guard.DimCount, guard.DimTime}},
		{name: "which things asks for names, not the value its words cue", in: "which weather file formats carry an hourly albedo",
			technical: true, text: "which weather file formats carry an hourly albedo"},
		{name: "which of a cue asks for its value", in: "which albedo is assumed for tmy2 files", technical: true,
			text: "which albedo is assumed for tmy2 files", dims: []guard.Dimension{guard.DimRatio}},
		{name: "a small quantity generator is no count", in: "rcra: what decides if we count as a small quantity generator",
			text: "rcra: what decides if we count as a small quantity generator"},
		{name: "a power plant is no power", in: "in a nuclear power plant what is the steam turbine connected to",
			text: "in a nuclear power plant what is the steam turbine connected to"},
		{name: "a cue after a power plant is asked", in: "power plant capacity in mw",
			text: "power plant capacity in mw", dims: []guard.Dimension{guard.DimPower}},
		{name: "air mass is no mass", in: "air mass coefficient a0 for glass/cell", text: "air mass coefficient a0 for glass/cell"},
		{name: "a cue between a word and a model number is the maker's name", in: "ideal power ipv-30kw mppt low + idcmax",
			text: "ideal power ipv-30kw mppt low + idcmax", dims: []guard.Dimension{guard.DimCurrent}},
		{name: "a cue opening the name before a model number is the maker's name", in: "power electronics fs0640cu vdcmax",
			text: "power electronics fs0640cu vdcmax", dims: []guard.Dimension{guard.DimVoltage}},
		{name: "ref is written out, ref-a is a name", in: "ref cell temp for ref-a", text: "reference cell temperature for ref-a",
			dims: []guard.Dimension{guard.DimTemperature}},
		{name: "a cue after when is the subject, not what is asked", in: "LID - when does the module power drop",
			text: "LID - when does the module power drop"},
		{name: "how far a value deviates is no distance", in: "how far can one year deviate from the long term average",
			text: "how far can one year deviate from the long term average"},
		{name: "how far off an estimate runs is no distance", in: "how far off does pvwatts run against real systems",
			text: "how far off does pvwatts run against real systems"},
		{name: "how far a trench runs is", in: "how far from the fence does the trench run",
			text: "how far from the fence does the trench run", dims: []guard.Dimension{guard.DimLength}},
		{name: "how far is a distance", in: "how far from the fence line can the spoil be stored",
			text: "how far from the fence line can the spoil be stored", dims: []guard.Dimension{guard.DimLength}},
		{name: "a cue after who is the subject, not what is asked", in: "who has the power to stop the works",
			text: "who has the power to stop the works"},
		{name: "an interval is a span of time", in: "reinspection interval for school buildings",
			text: "reinspection interval for school buildings", dims: []guard.Dimension{guard.DimTime}},
		{name: "a word of the cue's stem is not the cue", in: "permit for the used oil space heater",
			text: "permit for the used oil space heater"},
		{name: "a change in a quantity may be a percentage", in: "avg increase in annual energy v5 vs v1",
			text: "average increase in annual energy v5 versus v1", dims: []guard.Dimension{guard.DimEnergy, guard.DimPercent}},
		{name: "more of a quantity may be a percentage", in: "how much more energy does ar glass give",
			text: "how much more energy does ar glass give", dims: []guard.Dimension{guard.DimEnergy, guard.DimPercent}},
		{name: "a how cue asks whatever cue comes before it", in: "if a full year is too slow how many days can we run",
			text: "if a full year is too slow how many days can we run", dims: []guard.Dimension{guard.DimCount, guard.DimTime}},
		{name: "the maker's name cues when nothing else does", in: "green power pv900wd rating",
			text: "green power pv900wd rating", dims: []guard.Dimension{guard.DimPower}},
		{name: "the maker's name is no cue when other words say what is asked", in: "mppt window on the green power pv900wd",
			text: "Mppt_low and Mppt_high on the green power pv900wd"},
		{name: "a cue before a series and a bare model number is the maker's name", in: "open energy solar save 4600 mppt range",
			text: "open energy solar save 4600 mppt range"},
		{name: "a number with a unit is no model number", in: "annual energy pvwatts 4000 kwh system",
			text: "annual energy pvwatts 4000 kwh system", dims: []guard.Dimension{guard.DimEnergy}},
		{name: "which of a kind named by a cue asks which ones", in: "which 2 irradiance components does pvwatts need",
			technical: true, text: "which 2 irradiance components does pvwatts need"},
		{name: "which values named by a cue asks values", in: "which two irradiance values does pvwatts output",
			technical: true, text: "which two irradiance values does pvwatts output", dims: []guard.Dimension{guard.DimIrradiance}},
		{name: "equal to what asks what it equals", in: "2-axis tracking - the surface tilt gets set equal to what each hour",
			technical: true, text: "2-axis tracking - the surface tilt gets set equal to what each hour"},
		{name: "which thing has no value asks for the thing", in: "which v5 loss category has no related v1 derate",
			technical: true, text: "which v5 loss category has no related v1 derate"},
		{name: "based on asks what it follows", in: "1-axis without backtracking - what does v5 base the self-shading loss on",
			technical: true, text: "1-axis without backtracking - what does v5 base the self-shading loss on"},
		{name: "a version is no model whose maker a cue names", in: "annual energy v5 vs v1",
			text: "annual energy v5 versus v1", dims: []guard.Dimension{guard.DimEnergy}},
		{name: "a choice between two of a kind asks which", in: "vintage column - year tested or year manufactured?",
			text: "vintage column - year tested or year manufactured?"},
		{name: "a year asked for with an or elsewhere", in: "year the v1 sites were added or updated", text: "year the v1 sites were added or updated",
			dims: []guard.Dimension{guard.DimDate}},
		{name: "nothing but a reference is kept", in: "#3", text: "#3"},
		{name: "a parameter of a named model is its column", in: "SB7000TL-US-22 240V max ac power?",
			text: "SB7000TL-US-22 240V Paco?", dims: []guard.Dimension{guard.DimPower}},
		{name: "a model's isc and voc are its columns", in: "bp3232g isc and voc",
			text: "bp3232g Isco and Voco", dims: []guard.Dimension{guard.DimCurrent, guard.DimVoltage}},
		{name: "a model's isc temp coeff is the coefficient's column", in: "bp3232g isc temp coeff",
			text: "bp3232g aIsc"},
		{name: "a coefficient named by its quantity's description", in: "shell s165 short circuit current temp coeff",
			text: "shell s165 aIsc"},
		{name: "a model's operating ambient min and max are its two columns", in: "auxin axu-pv2000u @208 - operating ambient min / max",
			text: "auxin axu-pv2000u @208 - Tamb Low and Tamb Max"},
		{name: "a model's min ambient is its column", in: "pvp35kw-600 pnt and min ambient",
			text: "pvp35kw-600 pnt and Tamb Low", dims: []guard.Dimension{guard.DimPower}},
		{name: "a coefficient's column said what it is", in: "first solar fs-267 vmpo and its bvmpo temp coeff",
			text: "first solar fs-267 vmpo and its BVmpo", dims: []guard.Dimension{guard.DimVoltage}},
		{name: "a coefficient of the quantity described after it", in: "shell s165 temperature coefficient of the open circuit voltage",
			text: "shell s165 BVoco"},
		{name: "a model's maximum dc input voltage is its column", in: "recon 30l-100-us maximum dc input voltage",
			text: "recon 30l-100-us Vdcmax", dims: []guard.Dimension{guard.DimVoltage}},
		{name: "a description followed by another quantity is not the column", in: "max ac output current for the tmeic pvl-l0630u",
			text: "maximum ac output current for the tmeic pvl-l0630u", dims: []guard.Dimension{guard.DimCurrent}},
		{name: "without a model the words stay", in: "hourly outputs: dc and ac power units",
			text: "hourly outputs: dc and ac power units"},
		{name: "a coefficient of the speed is not a speed", in: "wind speed coeffs a and b for open rack",
			text: "wind speed coefficients a and b for open rack"},
		{name: "by how much asks a difference, as often a percentage", in: "by how much did v1 underpredict annual ac energy",
			text: "by how much did v1 underpredict annual ac energy", dims: []guard.Dimension{guard.DimEnergy, guard.DimPercent}},
		{name: "a cue after to is a verb", in: "ground reflected poa in pvwatts - isotropic or not, and what does it use to weight it",
			text: "ground reflected poa in pvwatts - isotropic or not, and what does it use to weight it"},
		{name: "a deadline is a date or a time", in: "voluntary diesel retrofit program - application deadline for contractors",
			text: "voluntary diesel retrofit program - application deadline for contractors", dims: []guard.Dimension{guard.DimDate, guard.DimTime}},
		{name: "what is the thing asked after the cue", in: "the 40 km gridded irradiance - whats the abbreviation in brackets",
			text: "the 40 km gridded irradiance - what is the abbreviation in brackets"},
		{name: "what is the value asked after the cue", in: "the 40 km gridded irradiance - what is the max temp",
			text: "the 40 km gridded irradiance - what is the maximum temperature", dims: []guard.Dimension{guard.DimIrradiance}},
		{name: "what the question asks after the cue is a thing", in: "module temp coeffs - measured under what sky conditions",
			text: "module temperature coefficients - measured under what sky conditions"},
		{name: "what it asks after the cue is a height", in: "roof mount inoct - what standoff height is that for",
			text: "roof mount inoct - what standoff height is that for", dims: []guard.Dimension{guard.DimTemperature}},
		{name: "a cue before an extent says which extent", in: "pvwatts wind speed height assumption",
			text: "pvwatts wind speed height assumption", dims: []guard.Dimension{guard.DimLength}},
		{name: "a legend says in words", in: "ixxo in the module db legend - current at what voltage",
			text: "ixxo in the module database legend - current at what voltage"},
		{name: "a cue before a loss says which loss", in: "nameplate rating loss default",
			text: "nameplate rating loss default", dims: []guard.Dimension{guard.DimPercent}},
		{name: "avg is average though a chart of the index writes Avg", in: "avg 2-axis increase over v1",
			text: "average 2-axis increase over v1"},
		{name: "a quantity is a number", in: "epcra reportable quantity for a diesel spill",
			text: "epcra reportable quantity for a diesel spill", dims: []guard.Dimension{guard.DimCount}},
		{name: "a series name and a number name a model", in: "blueplanet 32.0 tl3 m1 - night tare?",
			text: "blueplanet 32.0 tl3 m1 - Pnt?", dims: []guard.Dimension{guard.DimPower}},
		{name: "a short code of letters and digits names a model", in: "ae ae3.8 (208v) max dc current",
			text: "ae ae3.8 (208v) Idcmax", dims: []guard.Dimension{guard.DimCurrent}},
		{name: "a version and a voltage name no model", in: "pvwatts v5 ac output voltage at 240v",
			text: "pvwatts v5 ac output voltage at 240v", dims: []guard.Dimension{guard.DimVoltage}},
		{name: "a parameter after a plus is another parameter", in: "night tare + idcmax for the growatt 3000hf-us (240v)",
			text: "Pnt + idcmax for the growatt 3000hf-us (240v)", dims: []guard.Dimension{guard.DimPower}},
		{name: "a model's rated ac output is its column", in: "sinvert pvm12 ul - rated ac output + max dc input current",
			text: "sinvert pvm12 ul - Paco + Idcmax", dims: []guard.Dimension{guard.DimPower}},
		{name: "a clipped description spelled out is still the column", in: "need max dc input v and idcmax for the emerson spv-4.5",
			text: "need Vdcmax and idcmax for the emerson spv-4.5", dims: []guard.Dimension{guard.DimVoltage, guard.DimCurrent}},
		{name: "how heavy a model is, is its weight", in: "siemens sinvert pvs351 ul - how heavy is it",
			text: "siemens sinvert pvs351 ul - Weight is it", dims: []guard.Dimension{guard.DimMass}},
		{name: "a model's min ambient temp is its column", in: "min ambient temp of the sb3800-us, sandia inverter list",
			text: "Tamb Low of the sb3800-us, sandia inverter list"},
		{name: "an abbreviation equal to a question mark asks what it stands for", in: "pvpmc = ? (the one in the iea intro)",
			text: "what does pvpmc stand for? (the one in the iea intro)"},
		{name: "1p or 2p asks a tracker's configuration", in: "scenario a2 - 1p or 2p, and what ground surface",
			text: "scenario a2 - configuration, and what ground surface"},
		{name: "the number of things asks a count", in: "sinvert pvm20 number of mppt trackers",
			text: "sinvert pvm20 number of mppt trackers", dims: []guard.Dimension{guard.DimCount}},
		{name: "a model's ambient temperature range is both its columns", in: "satcon epp-1250 ambient temperature range",
			text: "satcon epp-1250 Tamb Low and Tamb Max"},
		{name: "a model's ambient limits are both its columns", in: "satcon epp-1250 ambient temp limits, low and high",
			text: "satcon epp-1250 Tamb Low and Tamb Max, low and high"},
		{name: "a model's mppt window is both its columns, and lo/hi both ends", in: "replus 11000tlb mppt window lo/hi",
			text: "replus 11000tlb Mppt_low and Mppt_high low/high"},
		{name: "hi/lo are the two ends too", in: "pvwatts dc/ac ratio hi/lo bounds", text: "pvwatts dc/ac ratio high/low bounds",
			dims: []guard.Dimension{guard.DimRatio}},
		{name: "fixed tilt names a kind of array", in: "table 8 elkins fixed tilt increase v5 vs v1",
			text: "table 8 elkins fixed tilt increase v5 versus v1"},
		{name: "fixed tilt angle asks an angle", in: "default fixed tilt angle in pvwatts",
			text: "default fixed tilt angle in pvwatts", dims: []guard.Dimension{guard.DimAngle}},
		{name: "two parameters share a head", in: "solar fabrik sf-100 isc and imp temp coefs",
			text: "solar fabrik sf-100 aIsc and aImp"},
		{name: "a participle of a cue is not the cue", in: "cec weighted efficiency of the topper sun ts-s3000 at 240v",
			text: "cec weighted efficiency of the topper sun ts-s3000 at 240v", dims: []guard.Dimension{guard.DimPercent, guard.DimRatio}},
		{name: "who after a quantity asks for someone", in: "spilled more than the reportable quantity of an epcra chemical, who do we report it to",
			text: "spilled more than the reportable quantity of an epcra chemical, who do we report it to"},
		{name: "a short name before a number names a model", in: "night tare on the danfoss mlx 480",
			text: "Pnt on the danfoss mlx 480", dims: []guard.Dimension{guard.DimPower}},
		{name: "a cue joined to a stopword before a model number is the maker's name", in: "i-power sho-1.1 ac voltage per sandia",
			text: "i-power sho-1.1 Vac per sandia", dims: []guard.Dimension{guard.DimVoltage}},
		{name: "a number joined to an s after a maker's name is its model", in: "ac rating for the pvi 4000s (240v)",
			text: "Paco for the pvi 4000s (240v)", dims: []guard.Dimension{guard.DimPower}},
		{name: "a maker, a series of two words and a number name a model", in: "kaco blue planet 3502 xi weight and max ambient temp",
			technical: true, text: "kaco blue planet 3502 xi weight and Tamb Max", dims: []guard.Dimension{guard.DimMass}},
		{name: "two words and a number after an english word name no model", in: "the solar resource 2014 data max ambient temp",
			technical: true, text: "the solar resource 2014 data maximum ambient temperature", dims: []guard.Dimension{guard.DimTemperature}},
		{name: "a maker, a series and a rating name a model", in: "satcon equinox 1mw max dc current and night tare",
			text: "satcon equinox 1mw Idcmax and Pnt", dims: []guard.Dimension{guard.DimCurrent, guard.DimPower}},
		{name: "a unit's weight asks for a mass, not a unit of measure", in: "enphase m210-84-240-s12 coldest ambient and unit weight (sandia)",
			technical: true, text: "enphase m210-84-240-s12 Tamb Low and unit weight (sandia)", dims: []guard.Dimension{guard.DimMass}},
		{name: "a unit named by its voltage is a device", in: "symo 10.0-3 (the 208-240 unit and the 480 unit) - vdcmax for each",
			technical: true, text: "symo 10.0-3 (the 208-240 unit and the 480 unit) - vdcmax for each", dims: []guard.Dimension{guard.DimVoltage}},
		{name: "any unit will do: the weight is asked, not its unit", in: "fronius cl 36.0 wye 277v weight (lbs or kg, whatever unit the sheet is in)",
			technical: true, text: "fronius cl 36.0 wye 277v weight (lbs or kg, whatever unit the sheet is in)", dims: []guard.Dimension{guard.DimMass}},
		{name: "the cue a cue qualifies is asked", in: "sharp nt-175u1 current temp coeffs",
			text: "sharp nt-175u1 current temperature coefficients", dims: []guard.Dimension{guard.DimTempCoeff}},
		{name: "what the asker supposes asks for nothing", in: "csi-5000tl-ct paco from the cec file? i think it drops below 5 kw but not sure how far",
			technical: true, text: "csi-5000tl-ct paco from the cec file? i think it drops below 5 kw but not sure how far", dims: []guard.Dimension{guard.DimPower}},
		{name: "a column the legend describes, its bracket closed with it", in: "uni-solar us-42: whats the current at v = 1/2(voc+vmp) in the module db",
			text: "uni-solar us-42: what is the Ixxo in the module database"},
		{name: "the legend's words for parallel cell strings", in: "us-42 number of parallel strings", text: "us-42 Parallel C-S"},
		{name: "a coefficient is asked, not what it relates", in: "bp sx3150 coefficent relating vmp to effective irradiance",
			text: "bp sx3150 coefficient relating Vmpo to effective irradiance"},
		{name: "the fourth point of the i-v curve by voc's names", in: "kyocera kc35 current at half the open-circuit voltage",
			text: "kyocera kc35 Ixo"},
		{name: "a specification clause is no quantity", in: "spec 26 31 00 §2.4.B calls for the altenergy yc500a on a 240 v service - paco?",
			text: "calls for the altenergy yc500a on a 240v service - paco?", stray: []string{"spec 26 31 00 §2.4.B"}, dims: []guard.Dimension{guard.DimPower}},
		{name: "a division's clause by its paragraph sign", in: "div 01 57 19 ¶1.4 wants an epa contact - which phone number",
			text: "wants an epa contact - which phone number", stray: []string{"div 01 57 19 ¶1.4"}},
		{name: "a meeting's action item", in: "AI-12 from the design review: confirm isco for the photowatt pwx750",
			text: "from the design review: confirm isco for the photowatt pwx750", stray: []string{"AI-12"}, dims: []guard.Dimension{guard.DimCurrent}},
		{name: "the channel a question is posted to", in: "#site-env — per the epa guide, max civil penalty per day",
			text: "per the epa guide, maximum civil penalty per day", stray: []string{"#site-env —"}},
		{name: "a drawing of the asker's set", in: "drawing S-501 detail 4 needs the torque tube gap",
			text: "needs the torque tube gap", stray: []string{"drawing S-501 detail 4"}, dims: []guard.Dimension{guard.DimLength}},
		{name: "a section of a document keeps its number", in: "pvwatts section 11 losses", text: "pvwatts section 11 losses", dims: []guard.Dimension{guard.DimPercent}},
		{name: "a job number in brackets is no quantity", in: "mitsu pv-mf180ud4 vmpo? (job 2231)",
			text: "mitsu pv-mf180ud4 vmpo?", stray: []string{"(job 2231)"}, dims: []guard.Dimension{guard.DimVoltage}},
		{name: "the lowest operating temperature is the ambient low", in: "ge pvia3000na1240 min operating temp",
			technical: true, text: "ge pvia3000na1240 Tamb Low"},
		{name: "a year asked by a clause of its own, a name by the other", in: "what year is NEPA from, and which NHPA section protects historic properties",
			text: "what year is NEPA from, and which NHPA section protects historic properties", dims: []guard.Dimension{guard.DimDate}},
		{name: "a which of the same clause asks a name", in: "which weather file formats can carry an hourly albedo",
			text: "which weather file formats can carry an hourly albedo"},
		{name: "the unit of a weight is asked", in: "weight unit in the sandia inverter sheet", technical: true,
			text: "weight unit in the sandia inverter sheet"},
		{name: "a series, a line and a number name a model; a bound typed after the quantity", in: "schneider conext tx 3800 na dc current max",
			technical: true, text: "schneider conext tx 3800 na Idcmax", dims: []guard.Dimension{guard.DimCurrent}},
		{name: "the nameplate ac rating is the ac power column", in: "sb7700tl-us-22-208v nameplate ac in the cec csv", technical: true,
			text: "sb7700tl-us-22-208v Paco in the cec csv", dims: []guard.Dimension{guard.DimPower}},
		{name: "both ends of the ambient range by the column's own name", in: "gefran apv 5200-2m-tl-dm-us 208v: sandia tamb low / high",
			technical: true, text: "gefran apv 5200-2m-tl-dm-us 208v: sandia Tamb Low and Tamb Max"},
		{name: "a model's delta t is its d(Tc)", in: "suniva titan 230 delta t", technical: true, text: "suniva titan 230 d(Tc)"},
		{name: "a model's delta tc on a mount is still its d(Tc)", in: "sanyo hip-190ba3 delta tc on a roof mount", technical: true,
			text: "sanyo hip-190ba3 d(Tc) on a roof mount"},
		{name: "a mount's delta t is the defaults sheet's deltaT", in: "defaults sheet a and delta T for the 22x linear concentrator on a tracker",
			technical: true, text: "defaults sheet a and delta T for the 22x linear concentrator on a tracker"},
		{name: "a number with a letter code after it names a model", in: "diehl platinum 100 cs-a 208 - min ambient temp",
			text: "diehl platinum 100 cs-a 208 - Tamb Low"},
		{name: "a number and a case after it name no model", in: "v5 ac power at 4 kw-dc in the manual",
			text: "v5 ac power at 4 kw-dc in the manual", dims: []guard.Dimension{guard.DimPower}},
		{name: "an english word before a rating names no maker", in: "default system 4kw ac rating",
			text: "default system 4kw ac rating", dims: []guard.Dimension{guard.DimPower}},
		{name: "a cell count asks for a count", in: "sanyo hip-186da3 cell count",
			text: "sanyo hip-186da3 Series Cells", dims: []guard.Dimension{guard.DimCount}},
		{name: "a choice of bases asks which, not how many", in: "series cells in the module db - per module or per cell-string",
			text: "series cells in the module database - per module or per cell-string"},
		{name: "numbers in three parts name a model", in: "ig plus v 10.0-3-208 delta night tare",
			text: "ig plus v 10.0-3-208 delta Pnt", dims: []guard.Dimension{guard.DimPower}},
		{name: "a date in three parts names no model", in: "night tare on 2022-06-15",
			text: "night tare on 2022-06-15"},
		{name: "months spelled out", in: "clear day in jan and cloudy day in dec", text: "clear day in january and cloudy day in december"},
		{name: "a unique id asks for no measure, though the maker's name holds one", in: "unique id of the advanced energy PVP250kW-480",
			text: "unique id of the advanced energy PVP250kW-480"},
		{name: "tbl and docs spelled out", in: "which nepa docs are required, tbl 2", text: "which nepa documents are required, table 2"},
		{name: "the possessive of a clipped word spelled out", in: "which phases of a bldg's life does green building cover",
			text: "which phases of a building's life does green building cover"},
		{name: "a yes or no question asks for no value", in: "is the total system loss just the sum of the individual losses",
			text: "is the total system loss just the sum of the individual losses"},
		{name: "max joined to the word before spells a column", in: "solaredge se9k idc max + pnt",
			text: "solaredge se9k idc max + pnt", dims: []guard.Dimension{guard.DimPower}},
		{name: "max before a word is still maximum", in: "max tracker angle", text: "maximum tracker angle",
			dims: []guard.Dimension{guard.DimAngle}},
		{name: "a maker's name after the model number", in: "cps sc20ktl-do-us-480, chint power systems america - idcmax",
			text: "cps sc20ktl-do-us-480, chint power systems america - idcmax", dims: []guard.Dimension{guard.DimCurrent}},
		{name: "weigh asks for the weight", in: "how much does the satcon pvs-135 weigh",
			text: "how much does the satcon pvs-135 Weight", dims: []guard.Dimension{guard.DimMass}},
		{name: "a named factor is a plain number", in: "bifaciality factor of the trina vertex",
			text: "bifaciality factor of the trina vertex", dims: []guard.Dimension{guard.DimRatio}},
		{name: "a factor that is no quantity asks for no value", in: "what fixed set of factors determine the actions of a deterministic turing machine",
			text: "what fixed set of factors determine the actions of a deterministic turing machine"},
		{name: "a view factor is what the question is about", in: "vf note - which eq gives the view factor to the ground at a point x",
			text: "vf note - which eq gives the view factor to the ground at a point x"},
		{name: "a model number given as the tail it differs by", in: "satcon ae-100-60-pv-a vs -pv-f unique id#",
			text: "satcon ae-100-60-pv-a versus ae-100-60-pv-f unique id#"},
		{name: "the top of a range is its high end", in: "ginlong gci-1.5k-2g-h-us vdco and top of the mppt range",
			text: "ginlong gci-1.5k-2g-h-us vdco and Mppt_high", dims: []guard.Dimension{guard.DimVoltage}},
		{name: "the bottom of a window is its low end", in: "satcon eqx0500us200x-x pnt and bottom of the mppt window",
			text: "satcon eqx0500us200x-x pnt and Mppt_low", dims: []guard.Dimension{guard.DimPower}},
		{name: "a file's name points at the document", in: "inverters_2012 sheet: ge gepve-2500-na-240 - lowest rated ambient",
			text: "sheet: ge gepve-2500-na-240 - Tamb Low", stray: []string{"inverters_2012"}},
		{name: "a file's name with its extension", in: "sma st48 weight in CEC_Inverters.csv", text: "sma st48 weight in",
			stray: []string{"CEC_Inverters.csv"}, dims: []guard.Dimension{guard.DimMass}},
		{name: "a column's name with an underscore is no file", in: "mppt_low of the se9k", text: "mppt_low of the se9k"},
		{name: "a tracker's key after the question mark", in: "ls600t max dc amps and upper mppt limit? CHG-4418",
			text: "ls600t Idcmax and Mppt_high", stray: []string{"? CHG-4418"}, dims: []guard.Dimension{guard.DimCurrent}},
		{name: "a negative number after a model number is no tail", in: "tamb low on the sb7000tl-us-22 and -25 c",
			text: "tamb low on the sb7000tl-us-22 and -25 c"},
		{name: "a tail longer than the model number stays", in: "sb-5000 vs -us-22-x paco", text: "sb-5000 versus -us-22-x paco",
			dims: []guard.Dimension{guard.DimPower}},
		{name: "a count of a unit asks for the unit's quantity", in: "how many input volts max on the fronius ig 4000",
			text: "how many input volts maximum on the fronius ig 4000", dims: []guard.Dimension{guard.DimVoltage}},
		{name: "a count of a column asks for its quantity", in: "how many max dc amps on the sb5000us",
			text: "how many Idcmax on the sb5000us", dims: []guard.Dimension{guard.DimCurrent}},
		{name: "a count of things stays a count", in: "how many dc strings on the sb5000us",
			text: "how many dc strings on the sb5000us", dims: []guard.Dimension{guard.DimCount}},
		{name: "a count of years stays a count", in: "the regatta predates the game by how many years",
			text: "the regatta predates the game by how many years", dims: []guard.Dimension{guard.DimCount}},
		{name: "a head shared by two columns after it", in: "sharp nd-216u1f maximum power point voltage and current",
			text: "sharp nd-216u1f Vmpo and Impo", dims: []guard.Dimension{guard.DimVoltage, guard.DimCurrent}},
		{name: "a head, the model, then the two quantities it heads", in: "max power point for the hip-225hde1 (sanyo): current and voltage",
			text: "maximum power point for the hip-225hde1 (sanyo): Impo and Vmpo", dims: []guard.Dimension{guard.DimCurrent, guard.DimVoltage}},
		{name: "more of a quantity named with an adjective is a change", in: "how much more annual energy does v5 predict than v1",
			text: "how much more annual energy does v5 predict than v1", dims: []guard.Dimension{guard.DimEnergy, guard.DimPercent}},
		{name: "a table's number is no value given", in: "table 3 efficiency for standard modules",
			text: "table 3 efficiency for standard modules", dims: []guard.Dimension{guard.DimPercent, guard.DimRatio}},
		{name: "a power point names no power", in: "what's the max power point of the hip-225hde1",
			text: "what's the maximum power point of the hip-225hde1"},
		{name: "the upper ambient limit is the highest ambient", in: "xantrex gt5.0 upper ambient limit",
			text: "xantrex gt5.0 Tamb Max"},
		{name: "an output named with another unit is another quantity", in: "sb5000us max ac output amps",
			text: "sb5000us maximum ac output amps"},
		{name: "a model's ac power is its column", in: "ac power of the pvi 3000",
			text: "Paco of the pvi 3000", dims: []guard.Dimension{guard.DimPower}},
		{name: "cw and ccw are the turning senses", in: "pvlib vf note sky arc cw or ccw",
			text: "pvlib vf note sky arc clockwise or counterclockwise"},
		{name: "a night spelled as typed", in: "es 2200-us-240 nite tare",
			text: "es 2200-us-240 Pnt", dims: []guard.Dimension{guard.DimPower}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := Analyse(tc.in, Input{Speller: sp, Technical: tc.technical})
			if a.Text != tc.text {
				t.Errorf("Text = %q, want %q", a.Text, tc.text)
			}
			if !slices.Equal(a.Stray, tc.stray) {
				t.Errorf("Stray = %q, want %q", a.Stray, tc.stray)
			}
			if !slices.Equal(a.Expect.Dims, tc.dims) {
				t.Errorf("Expect.Dims = %v, want %v", a.Expect.Dims, tc.dims)
			}
		})
	}
}

func TestSpellerCorrect(t *testing.T) {
	sp := NewSpeller(vocabulary)
	tests := []struct{ in, want string }{
		{"pvwats", "pvwatts"},
		{"sytem", "system"},
		{"premuim", "premium"},
		{"coefficent", "coefficient"}, // the index prints it once, the word it misses nine times
		{"albedos", ""},               // same stem as an indexed word
		{"table", ""},
		{"cable", ""}, // English
		{"xyzzyq", ""},
		{"tre", ""}, // too short
		{"avergae", "average"},
		{"acerage", ""}, // "acreage" with two letters swapped, not "average"
		{"offsite", ""}, // "off" and "site" run together, not "office"
		{"timezone", "time zone"},
		{"highest", ""},    // a suffix, not "high est"
		{"modle", "model"}, // two letters swapped, though "mode" is as near and said more
		{"ngiht", "night"}, // a word of the glossary's "night tare", which no document writes
		{"nigt", "night"},
		{"uner", "under"}, // a key left out, not one across the keyboard ("user")
		{"usrr", "user"},  // a key beside the one meant
		{"psox", ""},      // not to a word shorter than the shortest corrected ("pso")
	}
	for _, tc := range tests {
		if got := sp.Correct(tc.in); got != tc.want {
			t.Errorf("Correct(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	var nilSpeller *Speller
	if got := nilSpeller.Correct("pvwats"); got != "" {
		t.Errorf("nil speller corrected to %q", got)
	}
}

func TestQualifiersAndSiblings(t *testing.T) {
	asked := guard.Qualifiers("What is the minimum trench depth for AC cables?")
	if len(asked) != 2 {
		t.Fatalf("Qualifiers = %+v, want minimum and AC", asked)
	}
	tests := []struct {
		name, text, context string
		bad                 bool
	}{
		{name: "sibling only", text: "The minimum trench depth for DC cables is 800 mm.", bad: true},
		{name: "both named", text: "Trenches for DC cables are 800 mm deep and for AC cables 1000 mm.", bad: false},
		{name: "asked one named", text: "The minimum trench depth for AC cables is 1000 mm.", bad: false},
		{name: "neither named", text: "Trenches are backfilled with sand.", bad: false},
		{name: "context names it", text: "Depth: 1000 mm", context: "AC cable trenches", bad: false},
		{name: "lower case counts", text: "the dc cables are 800 mm deep", bad: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, bad := guard.SiblingOnly(asked, tc.text, tc.context)
			if bad != tc.bad {
				t.Errorf("SiblingOnly(%q) = %v, want %v", tc.text, bad, tc.bad)
			}
		})
	}
}

func TestAsksForAPublication(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"the ~3% shading loss came from which nrel report? need the number", true},
		{"sandia report number for the fuentes thermal model paper", true},
		{"report no. of the tmy3 users manual", true},
		{"ref 19 in the pvwatts manual - which journal", true},
		{"which commercial ar coatings does the manual cite", true},
		{"sam + pvsyst web links in the pvwatts v5 ref list", true},
		{"who do i contact to find out where to report an epcra spill", false},
		{"spilled more than the reportable quantity, who do we report it to", false},
		{"which weather file formats can carry an hourly albedo", false},
		{"hub height for the ref-c scenario", false},
		{"is the manual printed on recycled paper", false},
		{"where do we order a paper copy of the manual", false},
		{"which paper is the fuentes thermal model from", true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := Analyse(tc.in, Input{}).Expect.Source; got != tc.want {
				t.Errorf("Expect.Source = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestAsksAboutTheDocumentItself(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"who wrote the pvwatts v5 manual", true},
		{"authors of the view factor note", true},
		{"Which EPA office published the Federal Environmental Requirements for Construction guide?", true},
		{"epa guide publication number", true},
		{"task no. on the pvwatts v5 manual title page", true},
		{"contract number of the pvwatts manual", true},
		{"penalty for private use printed on the back page of the epa construction guide", true},
		{"who prepares the swppp on a construction site", false},
		{"is the notice of intent written by the operator or the owner", false},
		{"who prepared the iea bifacial study instructions", true},
		{"what does the epa guide say about lead paint", false},
		{"when does epa plan to publish the diesel engine standards", false},
		{"sandia report number for the fuentes thermal model paper", false},
		{"who wrote the tmy3 users manual that the pvwatts manual cites", false},
		{"authors of the pvform user's manual, ref 17 in the pvwatts v5 manual", false},
		{"michalsky sun position paper (ref 6) - what yr was it published", false},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := Analyse(tc.in, Input{}).Expect.Imprint; got != tc.want {
				t.Errorf("Expect.Imprint = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestImprintQuestionRanksByTheDocument(t *testing.T) {
	tests := []struct{ in, subject string }{
		{"who wrote the pvwatts v5 manual", "the pvwatts v5 manual"},
		{"task no. on the pvwatts v5 manual title page", "task on the pvwatts v5 manual"},
		{"default soiling loss in pvwatts", "default soiling loss in pvwatts"},
	}
	for _, tc := range tests {
		a := Analyse(tc.in, Input{})
		if a.Subject != tc.subject || a.Search != tc.subject {
			t.Errorf("Analyse(%q): Subject %q, Search %q; want both %q", tc.in, a.Subject, a.Search, tc.subject)
		}
	}
}

// TestPairAsked: "and" between two values of different kinds asks for
// both, and an answer may hold either kind; two values of one kind, or a
// value and a name, are no pair.
func TestPairAsked(t *testing.T) {
	tests := []struct {
		in   string
		pair bool
		dims []guard.Dimension
	}{
		{"torque tube diameter and max tracker rotation angle in the iea bifi sim", true, []guard.Dimension{guard.DimLength, guard.DimAngle}},
		{"hub height and row spacing for scenario a4", false, []guard.Dimension{guard.DimLength}},
		{"trina vertex in the iea bifi sim - module length and rated wattage", true, []guard.Dimension{guard.DimLength, guard.DimPower}},
		{"the 1-axis rotation angle report - authors and yr", false, []guard.Dimension{guard.DimAngle}},
		{"default soiling loss in pvwatts", false, []guard.Dimension{guard.DimPercent}},
		{"iea bifi trackers: torque tube diameter and the max rotation (deg)", true, []guard.Dimension{guard.DimLength, guard.DimAngle}},
		{"iea bifi trackers: torque tube diameter and the max rotation (deg c)", false, []guard.Dimension{guard.DimLength}},
		{"how much does the pvi 3000 weigh, and up to what ambient temperature can it run", true, []guard.Dimension{guard.DimMass, guard.DimTemperature}},
	}
	for _, tc := range tests {
		exp := Analyse(tc.in, Input{Technical: true}).Expect
		if exp.Pair != tc.pair || !slices.Equal(exp.Dims, tc.dims) {
			t.Errorf("Analyse(%q): Pair %v, Dims %v; want %v, %v", tc.in, exp.Pair, exp.Dims, tc.pair, tc.dims)
		}
	}
}

// TestExpansionQuestion: a question that asks what an abbreviation stands
// for lists the words that may be it, and is ranked without the words that
// ask.
func TestExpansionQuestion(t *testing.T) {
	tests := []struct {
		in, subject string
		expands     []string
	}{
		{"what does neshap stand for (the asbestos one)", "neshap for the asbestos one", []string{"neshap"}},
		{"full name of the nepa", "of the nepa", []string{"nepa"}},
		// "person" may be an abbreviation as far as the question says; no
		// sentence spells it out, so the reader reads the question as any
		// other, and "iea", which the study spells out, is not a candidate.
		{"full name of the person collecting the iea bifi results", "of the person collecting the iea bifacial results", []string{"person"}},
		{"cercla full name", "cercla", []string{"cercla"}},
		{"swppp is short for?", "swppp is for", []string{"swppp"}},
		{"what does the swppp have to describe", "what does the swppp have to describe", nil},
		{"who do we call for a spill, name and number", "who do we call for a spill, name and number", nil},
	}
	for _, tc := range tests {
		a := Analyse(tc.in, Input{})
		if a.Subject != tc.subject || !slices.Equal(a.Expect.Expands, tc.expands) {
			t.Errorf("Analyse(%q): Subject %q, Expands %q; want %q and %q", tc.in, a.Subject, a.Expect.Expands, tc.subject, tc.expands)
		}
	}
}

// TestTrackingCoversItsKinds: "tracking systems" speaks of 1-axis and
// 2-axis arrays alike, unless the passage or its frame names one kind.
func TestTrackingCoversItsKinds(t *testing.T) {
	tests := []struct {
		question, text, context string
		bad                     bool
	}{
		{"inoct for 1-axis / tracking systems", "For fixed open rack and tracking systems, the 45 °C INOCT is retained.", "", false},
		{"inoct for 2-axis systems", "For fixed open rack and tracking systems, the 45 °C INOCT is retained.", "", false},
		{"inoct for 1-axis systems", "For fixed open rack systems, the 45 °C INOCT is retained.", "", true},
		{"2-axis max rotation", "Maximum tracker rotation angle = 55 deg", "Bifacial Systems on Single Axis Trackers", true},
		{"2-axis max rotation", "For 1-axis tracking the rotation limit is 45 deg.", "", true},
	}
	for _, tc := range tests {
		asked := guard.Qualifiers(tc.question)
		if _, _, bad := guard.SiblingOnly(asked, tc.text, tc.context); bad != tc.bad {
			t.Errorf("SiblingOnly(%q, %q, %q) = %v, want %v", tc.question, tc.text, tc.context, bad, tc.bad)
		}
	}
}

// TestAskedCasesRead: the analysis asks about every tracking case when the
// question sets a fixed array against trackers, so the guards do not read
// a passage about single-axis trackers as the fixed array's sibling.
func TestAskedCasesRead(t *testing.T) {
	var got []string
	for _, q := range Analyse("is the iea sim for fixed tilt or trackers", Input{}).Expect.Qualifiers {
		got = append(got, q.Text)
	}
	if want := []string{"fixed tilt", "1-axis", "2-axis"}; !slices.Equal(got, want) {
		t.Errorf("Expect.Qualifiers = %q, want %q", got, want)
	}
}

func TestAskedFormat(t *testing.T) {
	tests := []struct {
		in   string
		want guard.Format
	}{
		{"phone no. for the national environmental compliance assistance clearinghouse", guard.FormatPhone},
		{"tdd number for the rcra hotline", guard.FormatTDD},
		{"hotline number the epa guide gives for ahera", guard.FormatPhone},
		{"call the hotline about what", ""},
		{"nrel fax number on the pvwatts manual", guard.FormatFax},
		{"website for the construction industry compliance assistance center", guard.FormatURL},
		{"where was the v4 web service hosted, url", guard.FormatURL},
		{"meteo file name for the iea bifacial study", guard.FormatFile},
		{"name / email of the person collecting the results", guard.FormatEmail},
		{"which weather file formats carry an hourly albedo", ""},
		{"who do we call about a spill", ""},
		{"brownfields program link from the epa construction guide", guard.FormatURL},
		{"pvwatts total poa, which eqn number is that", guard.FormatEquation},
		{"eq numbers for the averaged sky and ground vf", guard.FormatEquation},
		{"which equation gives the transmittance thru the ar layer", ""},
		{"the link between gcr and shading loss", ""},
		{"What did Arab oil producers link to Japan?", ""},
		{"Are link parameters based on size?", ""},
	}
	for _, tc := range tests {
		if got := Analyse(tc.in, Input{}).Expect.Format; got != tc.want {
			t.Errorf("Analyse(%q).Expect.Format = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// removal is a question, what is left of it once a part is removed, and
// what was removed, as written.
type removal struct {
	in, want string
	removed  []string
}

// checkRemovals runs fn, called name, on every case.
func checkRemovals(t *testing.T, name string, fn func(string) (string, []string), tests []removal) {
	t.Helper()
	for _, tc := range tests {
		got, removed := fn(tc.in)
		if got != tc.want || !slices.Equal(removed, tc.removed) {
			t.Errorf("%s(%q) = %q %q, want %q %q", name, tc.in, got, removed, tc.want, tc.removed)
		}
	}
}

// TestLayoutReadPast: a list's numbers and markdown's marks are layout,
// not words of the question.
func TestLayoutReadPast(t *testing.T) {
	for _, tc := range []struct {
		name  string
		f     func(string) string
		cases map[string]string
	}{
		{"withoutListMarkers", withoutListMarkers, map[string]string{
			"1. pvwatts default soiling loss 2. default shading loss":                  "pvwatts default soiling loss and default shading loss",
			"storm water q's: 1. what does SWPPP stand for. 2. what's the web address": "storm water q's: what does SWPPP stand for. what's the web address",
			"1) paco 2) pnt 3) vdcmax of the sb7000":                                   "paco and pnt and vdcmax of the sb7000",
			"table 1. default losses and table 2. inputs":                              "table 1. default losses and table 2. inputs",
			"what is in table 1. and 2. what":                                          "what is in table 1. and 2. what",
			"only one: 1. pvwatts default soiling loss":                                "only one: 1. pvwatts default soiling loss",
		}},
		{"unmarked", unmarked, map[string]string{
			"**TDD** number for the call center":           "TDD number for the call center",
			"what is the _default_ soiling loss":           "what is the default soiling loss",
			"the `eta_ref` of the typical inverter":        "the eta_ref of the typical inverter",
			"*premium* vs __thin film__ temp coeff":        "premium vs thin film temp coeff",
			"eta_ref and pdc_0 in CEC_Inverters.csv":       "eta_ref and pdc_0 in CEC_Inverters.csv",
			"2 * 3 = 6 and 4 * 5 = 20, which loss is 14 %": "2 * 3 = 6 and 4 * 5 = 20, which loss is 14 %",
		}},
	} {
		for in, want := range tc.cases {
			if got := tc.f(in); got != want {
				t.Errorf("%s(%q) = %q, want %q", tc.name, in, got, want)
			}
		}
	}
}

func TestRemoveCourtesy(t *testing.T) {
	tests := []removal{
		{"hey, quick q: paco of the sb7000tl-us-22 thanks", "paco of the sb7000tl-us-22", []string{"hey, quick q:", "thanks"}},
		{"does anyone know which thermal model pvwatts uses", "which thermal model pvwatts uses", []string{"does anyone know"}},
		{"@cew albedo default pls", "albedo default", []string{"@cew", "pls"}},
		{"can you tell me how much v1 underpredicts? - thanks!", "how much v1 underpredicts?", []string{"can you tell me", "- thanks!"}},
		{"hi cew, wind speed units in the hourly input thx", "wind speed units in the hourly input", []string{"hi cew,", "thx"}},
		{"need to know gap between modules along the row asap please", "gap between modules along the row", []string{"need to know", "please", "asap"}},
		{"any notes on the inverter efficiency curve, pls?", "any notes on the inverter efficiency curve", []string{", pls?"}},
		{"sorry if this is basic - pvwatts v5 default dc to ac ratio?", "pvwatts v5 default dc to ac ratio?", []string{"sorry if this is basic -"}},
		{"dumb question but what does gcr stand for", "what does gcr stand for", []string{"dumb question but"}},
		{"tldr: epa guide - who issues 404 permits? lmk", "epa guide - who issues 404 permits?", []string{"tldr:", "lmk"}},
		{"true or false: the default soiling loss is 2 %", "the default soiling loss is 2 %", []string{"true or false:"}},
		{"Morning folks, client QA'd our yield report - how far off does pvwatts run?", "client QA'd our yield report - how far off does pvwatts run?",
			[]string{"Morning folks,"}},
		{"good afternoon all - default albedo?", "default albedo?", []string{"good afternoon all -"}},
		{"Morning, default albedo in pvwatts?", "default albedo in pvwatts?", []string{"Morning,"}},
		{"ballpark isc at stc for the sx70", "isc at stc for the sx70", []string{"ballpark"}},
		{"roughly how much more energy does v5 predict", "how much more energy does v5 predict", []string{"roughly"}},
		// Words that only look like courtesy stay.
		{"basic system losses in pvwatts", "basic system losses in pvwatts", nil},
		{"hi-mo 4 isco", "hi-mo 4 isco", nil},
		{"morning peak irradiance in the iea file", "morning peak irradiance in the iea file", nil},
		{"which thermal model does pvwatts use", "which thermal model does pvwatts use", nil},
		// Nothing but courtesy: nothing else to read.
		{"thanks", "thanks", nil},
	}
	checkRemovals(t, "removeCourtesy", removeCourtesy, tests)
}

func TestJoinLines(t *testing.T) {
	tests := []removal{
		{"Morning folks,\n\nhow far off does pvwatts run?\n\nCheers,\nDan", "Morning folks, how far off does pvwatts run?", []string{"Cheers,\nDan"}},
		{"default albedo?\nthanks\n- Priya", "default albedo?", []string{"thanks\n- Priya"}},
		{"paco of the sb7000?\nthanks\nalso pnt", "paco of the sb7000? thanks. also pnt", nil},
		{"> 2P layout is just the 1P one doubled\nnot quite - what gap across the torque tube for 2P",
			"2P layout is just the 1P one doubled. what gap across the torque tube for 2P", []string{"not quite -"}},
		{"> it's only done numerically\ndon't think so — which eq # makes it exact", "it's only done numerically. which eq # makes it exact",
			[]string{"don't think so —"}},
		{"> the gap is 5 cm\nnot quite right, is it", "the gap is 5 cm. not quite right, is it", nil},
		{"iea bifi setup:\n[x] max tracker rotation 55 deg\n[ ] row pitch for the gcr 0.25 case", "iea bifi setup: row pitch for the gcr 0.25 case",
			[]string{"[x] max tracker rotation 55 deg"}},
		{"Expected: one row\nActual: two rows\nQ: what paco does each give?", "Expected: one row. Actual: two rows. Q: what paco does each give?", nil},
		{"what goes in the ???\n```yaml\nvdcmax: ???\n```", "what goes in the ??? vdcmax: ???", nil},
		{"paco of the sb7000", "paco of the sb7000", nil},
		{"[x] only a done item", "[x] only a done item", nil},
		// A closing word that is the question's own stays.
		{"which losses does v5 model\nbest guess is fine", "which losses does v5 model. best guess is fine", nil},
	}
	checkRemovals(t, "joinLines", joinLines, tests)
}

func TestRemoveScope(t *testing.T) {
	tests := []removal{
		{"according to the docs what is the default albedo", "what is the default albedo", []string{"according to the docs"}},
		{"per the uploaded docs, pvwatts v4 release year", "pvwatts v4 release year", []string{"per the uploaded docs,"}},
		{"in our documents: sgi 500xt paco", "sgi 500xt paco", []string{"in our documents:"}},
		{"default soiling loss according to the docs?", "default soiling loss?", []string{"according to the docs?"}},
		{"gcr of the 2-up layout for the submittal", "gcr of the 2-up layout", []string{"for the submittal"}},
		{"inoct for glass/cell/glass, on this project", "inoct for glass/cell/glass", []string{", on this project"}},
		// A phrase that names a document is no scope phrase.
		{"albedo per the pvwatts manual", "albedo per the pvwatts manual", nil},
		{"trench depth in the electrical spec", "trench depth in the electrical spec", nil},
		// Nor is one inside the question, or one that is all of it.
		{"which of the docs gives the albedo", "which of the docs gives the albedo", nil},
		{"in the docs", "in the docs", nil},
	}
	checkRemovals(t, "removeScope", removeScope, tests)
}

func TestFormWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"ntis phone no. + fax from the notice page", []string{"phone", "no", "fax"}},
		{"brownfields program link from the epa guide", []string{"link"}},
		{"web address for the rcra hotline", []string{"web", "address"}},
		{"who do we call about a spill", nil},
	}
	for _, tc := range tests {
		if got := Analyse(tc.in, Input{}).Expect.FormWords; !slices.Equal(got, tc.want) {
			t.Errorf("Analyse(%q).Expect.FormWords = %q, want %q", tc.in, got, tc.want)
		}
	}
}
