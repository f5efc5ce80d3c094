// Package ingesttest writes the hostile files a reliability probe feeds
// ingestion — zip bombs, a CSV line of millions of cells, a single cell of
// megabytes, sheets of a million rows, a PDF of a hundred thousand pages,
// deeply nested tables — at any size, streamed to disk so that writing
// them costs no memory. Tests use them small; BenchmarkIngestMemory full
// size.
package ingesttest

import (
	"archive/zip"
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// create opens path for writing through a buffer; done flushes and closes.
func create(path string) (*bufio.Writer, func() error, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	return w, func() error {
		if err := w.Flush(); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}, nil
}

// repeat writes whole copies of s, about n bytes of them (at least one).
func repeat(w io.Writer, s string, n int64) error {
	copies := max(1, n/int64(len(s)))
	per := int64(max(1, 64<<10/len(s)))
	block := strings.Repeat(s, int(per))
	for copies > 0 {
		k := min(copies, per)
		if _, err := io.WriteString(w, block[:k*int64(len(s))]); err != nil {
			return err
		}
		copies -= k
	}
	return nil
}

// WideCSV writes one CSV line of about size bytes: "a,a,a,…", a cell every
// two bytes.
func WideCSV(path string, size int64) error {
	w, done, err := create(path)
	if err != nil {
		return err
	}
	if err := repeat(w, "a,", size-2); err != nil {
		return err
	}
	if _, err := w.WriteString("a\n"); err != nil {
		return err
	}
	return done()
}

// SingleCellCSV writes a CSV of one cell holding size bytes without a
// space.
func SingleCellCSV(path string, size int64) error {
	w, done, err := create(path)
	if err != nil {
		return err
	}
	if err := repeat(w, "0123456789abcdef", size); err != nil {
		return err
	}
	if _, err := w.WriteString("\n"); err != nil {
		return err
	}
	return done()
}

// zipPackage writes an Office package: parts maps names to contents, and
// big (written last, streamed by write) is the one large part.
func zipPackage(path string, parts map[string]string, bigName string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	for _, name := range sortedKeys(parts) {
		pw, err := zw.Create(name)
		if err != nil {
			f.Close()
			return err
		}
		if _, err := io.WriteString(pw, parts[name]); err != nil {
			f.Close()
			return err
		}
	}
	pw, err := zw.Create(bigName)
	if err != nil {
		f.Close()
		return err
	}
	bw := bufio.NewWriterSize(pw, 1<<20)
	if err := write(bw); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

const wordML = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`

var docxParts = map[string]string{
	"[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
		`<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
	"_rels/.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
		`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
}

// DOCXBomb writes a small DOCX whose document.xml expands to about expand
// bytes of the same paragraph, repeated.
func DOCXBomb(path string, expand int64) error {
	return zipPackage(path, docxParts, "word/document.xml", func(w io.Writer) error {
		if _, err := io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><w:document `+wordML+`><w:body>`); err != nil {
			return err
		}
		if err := repeat(w, `<w:p><w:r><w:t>The minimum trench depth for DC cables is 800 mm from finished ground level.</w:t></w:r></w:p>`, expand); err != nil {
			return err
		}
		_, err := io.WriteString(w, `</w:body></w:document>`)
		return err
	})
}

// DeepDOCX writes a DOCX of tables nested depth deep, a paragraph in the
// innermost cell.
func DeepDOCX(path string, depth int) error {
	return zipPackage(path, docxParts, "word/document.xml", func(w io.Writer) error {
		if _, err := io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><w:document `+wordML+`><w:body>`); err != nil {
			return err
		}
		for range depth {
			if _, err := io.WriteString(w, `<w:tbl><w:tr><w:tc>`); err != nil {
				return err
			}
		}
		if _, err := io.WriteString(w, `<w:p><w:r><w:t>Innermost cell: earthing conductor 95 mm2.</w:t></w:r></w:p>`); err != nil {
			return err
		}
		for range depth {
			if _, err := io.WriteString(w, `</w:tc></w:tr></w:tbl>`); err != nil {
				return err
			}
		}
		_, err := io.WriteString(w, `</w:body></w:document>`)
		return err
	})
}

var xlsxParts = map[string]string{
	"[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
		`<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
		`<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
	"_rels/.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
		`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
	"xl/workbook.xml": `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ` +
		`xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`,
	"xl/_rels/workbook.xml.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
		`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
}

// Sheet writes an XLSX with one sheet of rows × cols cells: a header row,
// then rows of numbers (inline, no shared strings), streamed.
func Sheet(path string, rows, cols int) error {
	return zipPackage(path, xlsxParts, "xl/worksheets/sheet1.xml", func(w io.Writer) error {
		if _, err := io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`); err != nil {
			return err
		}
		if _, err := io.WriteString(w, `<row r="1">`); err != nil {
			return err
		}
		for c := range cols {
			if _, err := fmt.Fprintf(w, `<c t="inlineStr"><is><t>Parameter %d</t></is></c>`, c+1); err != nil {
				return err
			}
		}
		if _, err := io.WriteString(w, `</row>`); err != nil {
			return err
		}
		for r := 2; r <= rows+1; r++ {
			if _, err := fmt.Fprintf(w, `<row r="%d">`, r); err != nil {
				return err
			}
			for c := range cols {
				if _, err := fmt.Fprintf(w, `<c><v>%d.%d</v></c>`, r, c); err != nil {
					return err
				}
			}
			if _, err := io.WriteString(w, `</row>`); err != nil {
				return err
			}
		}
		_, err := io.WriteString(w, `</sheetData></worksheet>`)
		return err
	})
}

// XLSXBomb writes a small XLSX whose sheet expands to about expand bytes of
// identical rows.
func XLSXBomb(path string, expand int64) error {
	return zipPackage(path, xlsxParts, "xl/worksheets/sheet1.xml", func(w io.Writer) error {
		if _, err := io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`); err != nil {
			return err
		}
		if err := repeat(w, `<row><c t="inlineStr"><is><t>trench</t></is></c><c><v>800</v></c><c><v>1000</v></c></row>`, expand); err != nil {
			return err
		}
		_, err := io.WriteString(w, `</sheetData></worksheet>`)
		return err
	})
}

// PagesPDF writes a PDF of pages pages, each showing one line of text (one
// content stream shared by every page).
func PagesPDF(path string, pages int) error {
	w, done, err := create(path)
	if err != nil {
		return err
	}
	var offsets []int64
	written := int64(0)
	write := func(s string) error {
		n, err := w.WriteString(s)
		written += int64(n)
		return err
	}
	object := func(body string) error {
		offsets = append(offsets, written)
		return write(fmt.Sprintf("%d 0 obj\n%s\nendobj\n", len(offsets), body))
	}
	if err := write("%PDF-1.4\n"); err != nil {
		return err
	}
	// 1 catalog, 2 pages, 3 font, 4 content, 5… the pages.
	if err := object("<< /Type /Catalog /Pages 2 0 R >>"); err != nil {
		return err
	}
	var kids strings.Builder
	for i := range pages {
		fmt.Fprintf(&kids, "%d 0 R ", 5+i)
	}
	if err := object(fmt.Sprintf("<< /Type /Pages /Count %d /Kids [%s] >>", pages, kids.String())); err != nil {
		return err
	}
	if err := object("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"); err != nil {
		return err
	}
	content := "BT /F1 12 Tf 72 720 Td (The minimum trench depth for DC cables is 800 mm.) Tj ET"
	if err := object(fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content)); err != nil {
		return err
	}
	for range pages {
		if err := object("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>"); err != nil {
			return err
		}
	}
	xref := written
	if err := write(fmt.Sprintf("xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)); err != nil {
		return err
	}
	for _, off := range offsets {
		if err := write(fmt.Sprintf("%010d 00000 n \n", off)); err != nil {
			return err
		}
	}
	if err := write(fmt.Sprintf("trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)); err != nil {
		return err
	}
	return done()
}

// DOCX writes a DOCX whose main part is documentXML (for fuzzing the
// reader with any body).
func DOCX(path, documentXML string) error {
	return zipPackage(path, docxParts, "word/document.xml", func(w io.Writer) error {
		_, err := io.WriteString(w, documentXML)
		return err
	})
}

// XLSX writes an XLSX of one sheet whose XML is sheetXML and, when not
// empty, a shared-strings part (for fuzzing the reader with any sheet).
func XLSX(path, sheetXML, sharedStrings string) error {
	parts := xlsxParts
	if sharedStrings != "" {
		parts = map[string]string{}
		for k, v := range xlsxParts {
			parts[k] = v
		}
		parts["xl/sharedStrings.xml"] = sharedStrings
		parts["xl/_rels/workbook.xml.rels"] = strings.Replace(xlsxParts["xl/_rels/workbook.xml.rels"], "</Relationships>",
			`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`, 1)
	}
	return zipPackage(path, parts, "xl/worksheets/sheet1.xml", func(w io.Writer) error {
		_, err := io.WriteString(w, sheetXML)
		return err
	})
}
